package svc_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	svc "github.com/svc-contracts/svc/clients/go"
)

// avatarPNG is the start of a PNG file: bytes that are not valid UTF-8, which a proto3 string
// field cannot carry as they are.
var avatarPNG = []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0x00, 0x00, 0x00, 0x0d, 'I', 'H', 'D', 'R', 0xff, 0xfe}

func newAvatarsClient(t *testing.T) (*svc.Client, string) {
	t.Helper()
	client := newClient(t)
	schemaID := uniqueSchemaID(t)
	if _, err := client.RegisterSchemaWithVersion(t.Context(), schemaID, "testdata/avatars-v1.yaml", "1.0.0"); err != nil {
		t.Fatal(err)
	}
	return client, schemaID
}

// avatarsApp answers a PNG for /users/{id}/avatar and, for /users/{id}, a user without its
// required email: a violation the middleware must report whatever else shares its batch.
func avatarsApp() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /users/{id}/avatar", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(avatarPNG)
	})
	mux.HandleFunc("GET /users/{id}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":%s,"name":"Ada"}`, r.PathValue("id"))
	})
	return mux
}

func TestValidateBodiesThatAreNotUTF8(t *testing.T) {
	client, _ := newAvatarsClient(t)
	avatar := svc.Interaction{
		Request:  svc.Request{Method: "GET", Path: "/users/42/avatar", Header: http.Header{"X-Name": {"caf\xe9"}}},
		Response: svc.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"image/png"}}, Body: avatarPNG},
	}
	userWithoutEmail := svc.Interaction{
		Request:  svc.Request{Method: "GET", Path: "/users/13"},
		Response: svc.Response{StatusCode: 200, Header: jsonHeader(), Body: map[string]any{"id": 13, "name": "Ada"}},
	}
	validUser := svc.Interaction{
		Request:  svc.Request{Method: "GET", Path: "/users/42"},
		Response: svc.Response{StatusCode: 200, Header: jsonHeader(), Body: map[string]any{"id": 42, "name": "Ada", "email": "ada@example.com"}},
	}

	t.Run("Validate", func(t *testing.T) {
		result, err := client.Validate(t.Context(), avatar.Request, avatar.Response)
		if err != nil || !result.Valid {
			t.Fatalf("a binary body is validated like any other: %+v %v", result, err)
		}
	})
	t.Run("ValidateProducerResponse", func(t *testing.T) {
		result, err := client.ValidateProducerResponse(t.Context(), svc.Request{Method: "GET", Path: "/users/42/avatar\xff"}, avatar.Response)
		if err != nil || result.Valid {
			t.Fatalf("a path that is not UTF-8 is validated (and matches no operation): %+v %v", result, err)
		}
	})
	t.Run("ValidateMany", func(t *testing.T) {
		results, err := client.ValidateMany(t.Context(), []svc.Interaction{avatar, userWithoutEmail, validUser})
		if err != nil {
			t.Fatalf("one binary body must not fail the others: %v", err)
		}
		if len(results) != 3 || !results[0].Valid || results[1].Valid || !results[2].Valid {
			t.Fatalf("results %+v", results)
		}
	})
}

func TestMiddlewareBinaryResponseKeepsItsBatchValidated(t *testing.T) {
	client, schemaID := newAvatarsClient(t)
	logs, violations := &syncBuffer{}, &violationLog{}
	middleware, err := svc.NewMiddleware(client, svc.MiddlewareConfig{
		SchemaID: schemaID, Mode: svc.Warn, OnViolation: violations.record, Logger: slog.New(slog.NewJSONHandler(logs, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	server := httptest.NewServer(middleware.Handler(avatarsApp()))
	t.Cleanup(func() {
		server.Close()
		_ = middleware.Close()
	})
	f := &middlewareFixture{server: server, middleware: middleware}

	// Sent one after the other, well within one batch delay: validated together in one stream.
	for _, path := range []string{"/users/1/avatar", "/users/13", "/users/14"} {
		if status, _ := f.do(t, "GET", path, ""); status != 200 {
			t.Fatalf("%s: %d", path, status)
		}
	}
	stats := f.flush(t)
	if stats.Validated != 3 || stats.Violations != 2 || stats.ValidatorErrors != 0 {
		t.Fatalf("every exchange of the batch is validated: %+v\n%s", stats, logs)
	}
	for _, violation := range violations.list() {
		if !strings.HasPrefix(violation.Path, "/users/1") || strings.HasSuffix(violation.Path, "/avatar") {
			t.Fatalf("violation %+v", violation)
		}
	}
	if strings.Contains(logs.String(), "unavailable") {
		t.Fatalf("a reachable validator was reported unavailable:\n%s", logs)
	}
}
