package svc_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	svc "github.com/svc-contracts/svc/clients/go"
)

// In shadow and warn mode a request body the handler never read (it answered without it) is
// unknown, not empty: the exchange's response is checked alone, as in strict mode.
func TestMiddlewareUnreadRequestBody(t *testing.T) {
	client, schemaID := newBoundClient(t)
	// POST /users answers 201 without reading the body; X-Answer: wrong gets a user whose id is a string.
	createUser := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		if r.Header.Get("X-Answer") == "wrong" {
			io.WriteString(w, `{"id":"one","name":"Ada","email":"ada@example.com"}`)
			return
		}
		io.WriteString(w, `{"id":1,"name":"Ada","email":"ada@example.com"}`)
	})
	bodies := []struct {
		name string
		body func() io.Reader
	}{
		{"content-length", func() io.Reader { return strings.NewReader(`{"name":"Ada"}`) }},
		// A reader of unknown length is sent chunked.
		{"chunked", func() io.Reader { return io.MultiReader(strings.NewReader(`{"name":"Ada"}`)) }},
	}
	for _, mode := range []svc.Mode{svc.Shadow, svc.Warn} {
		for _, body := range bodies {
			t.Run(string(mode)+"/"+body.name, func(t *testing.T) {
				violations := &violationLog{}
				middleware, err := svc.NewMiddleware(client, svc.MiddlewareConfig{
					SchemaID: schemaID, Mode: mode, OnViolation: violations.record, Logger: slog.New(slog.DiscardHandler),
				})
				if err != nil {
					t.Fatal(err)
				}
				server := httptest.NewServer(middleware.Handler(createUser))
				t.Cleanup(func() {
					server.Close()
					_ = middleware.Close()
				})
				f := &middlewareFixture{server: server, middleware: middleware}
				post := func(answer string) {
					t.Helper()
					request, err := http.NewRequestWithContext(t.Context(), "POST", server.URL+"/users", body.body())
					if err != nil {
						t.Fatal(err)
					}
					request.Header.Set("Content-Type", "application/json")
					request.Header.Set("X-Answer", answer)
					response, err := server.Client().Do(request)
					if err != nil {
						t.Fatal(err)
					}
					_, _ = io.Copy(io.Discard, response.Body)
					response.Body.Close()
					if response.StatusCode != http.StatusCreated {
						t.Fatalf("status %d", response.StatusCode)
					}
				}

				post("right")
				if stats := f.flush(t); stats.Validated != 1 || stats.Violations != 0 || stats.Skipped != 0 {
					t.Fatalf("a valid request whose body was never read: stats %+v, violations %+v", stats, violations.list())
				}
				// The response is still checked.
				post("wrong")
				if stats := f.flush(t); stats.Validated != 2 || stats.Violations != 1 || stats.Skipped != 0 {
					t.Fatalf("stats %+v", stats)
				}
				got := violations.list()
				if len(got) != 1 || got[0].Phase != svc.PhaseResponse || got[0].StatusCode != 201 || !strings.Contains(strings.Join(got[0].Errors, "\n"), "/id") {
					t.Fatalf("violations %+v", got)
				}
			})
		}
	}
}
