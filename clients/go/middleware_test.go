package svc_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	svc "github.com/svc-contracts/svc/clients/go"
)

// usersApp is a small real application: one handler per route of users-v1.yaml. User 13 is
// answered without its id, a response that breaks the contract.
type usersApp struct {
	handled atomic.Int64
}

func (a *usersApp) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.handled.Add(1)
	mux := http.NewServeMux()
	mux.HandleFunc("GET /users/{id}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.PathValue("id") == "13" {
			fmt.Fprint(w, `{"name":"Ada","email":"ada@example.com"}`)
			return
		}
		fmt.Fprintf(w, `{"id":%s,"name":"Ada","email":"ada@example.com"}`, r.PathValue("id"))
	})
	mux.HandleFunc("POST /users", func(w http.ResponseWriter, r *http.Request) {
		var user map[string]any
		if err := json.NewDecoder(r.Body).Decode(&user); err != nil {
			http.Error(w, err.Error(), http.StatusUnprocessableEntity)
			return
		}
		user["id"] = 1
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(user)
	})
	mux.HandleFunc("GET /internal/status", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "not in the contract")
	})
	mux.ServeHTTP(w, r)
}

// syncBuffer is a log destination the background workers and the test can share.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

type violationLog struct {
	mu         sync.Mutex
	violations []svc.Violation
}

func (v *violationLog) record(violation svc.Violation) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.violations = append(v.violations, violation)
}

func (v *violationLog) list() []svc.Violation {
	v.mu.Lock()
	defer v.mu.Unlock()
	return append([]svc.Violation(nil), v.violations...)
}

type middlewareFixture struct {
	server     *httptest.Server
	middleware *svc.Middleware
	app        *usersApp
	logs       *syncBuffer
	violations *violationLog
}

// serveWithMiddleware serves usersApp behind the middleware on a real loopback HTTP server.
func serveWithMiddleware(t *testing.T, client *svc.Client, config svc.MiddlewareConfig) *middlewareFixture {
	t.Helper()
	f := &middlewareFixture{app: &usersApp{}, logs: &syncBuffer{}, violations: &violationLog{}}
	config.Logger = slog.New(slog.NewJSONHandler(f.logs, nil))
	config.OnViolation = f.violations.record
	middleware, err := svc.NewMiddleware(client, config)
	if err != nil {
		t.Fatal(err)
	}
	f.middleware = middleware
	f.server = httptest.NewServer(middleware.Handler(f.app))
	t.Cleanup(func() {
		f.server.Close()
		_ = middleware.Close()
	})
	return f
}

func (f *middlewareFixture) do(t *testing.T, method, path, body string) (int, string) {
	t.Helper()
	request, err := http.NewRequestWithContext(t.Context(), method, f.server.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		request.Header.Set("Content-Type", "application/json")
	}
	response, err := f.server.Client().Do(request)
	if err != nil {
		t.Fatal(err)
	}
	defer response.Body.Close()
	text, err := io.ReadAll(response.Body)
	if err != nil {
		t.Fatal(err)
	}
	return response.StatusCode, string(text)
}

func (f *middlewareFixture) flush(t *testing.T) svc.MiddlewareStats {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	if err := f.middleware.Flush(ctx); err != nil {
		t.Fatalf("flush: %v (stats %+v)", err, f.middleware.Stats())
	}
	return f.middleware.Stats()
}

func TestMiddlewareModes(t *testing.T) {
	client, schemaID := newBoundClient(t)
	for _, mode := range []svc.Mode{svc.Warn, svc.Shadow} {
		t.Run(string(mode), func(t *testing.T) {
			f := serveWithMiddleware(t, client, svc.MiddlewareConfig{SchemaID: schemaID, Mode: mode})
			if status, body := f.do(t, "GET", "/users/42", ""); status != 200 || !strings.Contains(body, `"id":42`) {
				t.Fatalf("a valid exchange: %d %s", status, body)
			}
			// Both violations reach the application: warn and shadow never change traffic.
			if status, _ := f.do(t, "GET", "/users/13", ""); status != 200 {
				t.Fatalf("a response violation: %d", status)
			}
			if status, body := f.do(t, "POST", "/users", `{"name":"Ada"}`); status != 201 || !strings.Contains(body, `"name":"Ada"`) {
				t.Fatalf("a request violation: %d %s", status, body)
			}
			stats := f.flush(t)
			if stats.Validated != 3 || stats.Violations != 2 || stats.Rejected != 0 || stats.ValidatorErrors != 0 {
				t.Fatalf("stats %+v", stats)
			}
			violations := f.violations.list()
			paths := map[string]bool{}
			for _, v := range violations {
				paths[v.Method+" "+v.Path] = v.Phase == svc.PhaseInteraction && v.Mode == mode && v.SchemaID == schemaID && len(v.Errors) > 0
			}
			if len(violations) != 2 || !paths["GET /users/13"] || !paths["POST /users"] {
				t.Fatalf("violations %+v", violations)
			}
			logged := strings.Count(f.logs.String(), "contract violation")
			if (mode == svc.Warn && logged != 2) || (mode == svc.Shadow && logged != 0) {
				t.Fatalf("%s mode logged %d violations:\n%s", mode, logged, f.logs.String())
			}
		})
	}

	t.Run("strict", func(t *testing.T) {
		f := serveWithMiddleware(t, client, svc.MiddlewareConfig{SchemaID: schemaID, Mode: svc.Strict})
		status, body := f.do(t, "POST", "/users", `{"name":"Ada"}`)
		var rejection svc.RejectionBody
		if status != 400 || json.Unmarshal([]byte(body), &rejection) != nil || rejection.Error != "Bad Request" || len(rejection.Errors) == 0 {
			t.Fatalf("a request violation must be rejected: %d %s", status, body)
		}
		if f.app.handled.Load() != 0 {
			t.Fatal("the handler ran for a rejected request")
		}
		// A valid request reaches the handler with its body intact.
		if status, body := f.do(t, "POST", "/users", `{"name":"Ada","email":"ada@example.com"}`); status != 201 || !strings.Contains(body, "ada@example.com") {
			t.Fatalf("a valid request: %d %s", status, body)
		}
		if status, _ := f.do(t, "GET", "/users/13", ""); status != 200 {
			t.Fatalf("a response violation is only logged: %d", status)
		}
		stats := f.flush(t)
		if stats.Rejected != 1 || stats.Violations != 2 {
			t.Fatalf("stats %+v", stats)
		}
		logs := f.logs.String()
		if !strings.Contains(logs, "request rejected: contract violation") || !strings.Contains(logs, `"level":"ERROR","msg":"response violates the contract"`) {
			t.Fatalf("logs:\n%s", logs)
		}
	})
}

func TestMiddlewarePathSelection(t *testing.T) {
	client, schemaID := newBoundClient(t)
	f := serveWithMiddleware(t, client, svc.MiddlewareConfig{
		SchemaID: schemaID, IncludePaths: []string{"/users/**", "/internal/**"}, ExcludePaths: []string{"/internal/*"},
	})
	for _, path := range []string{"/users/1", "/users/13", "/internal/status", "/internal/status/"} {
		f.do(t, "GET", path, "")
	}
	stats := f.flush(t)
	if stats.Validated != 2 || stats.Skipped != 2 || stats.Violations != 1 {
		t.Fatalf("stats %+v", stats)
	}
}

func TestMiddlewareSampling(t *testing.T) {
	client, schemaID := newBoundClient(t)
	f := serveWithMiddleware(t, client, svc.MiddlewareConfig{SchemaID: schemaID, Mode: svc.Shadow, SampleRate: 0.5})
	const requests = 200
	for range requests {
		f.do(t, "GET", "/users/1", "")
	}
	stats := f.flush(t)
	// Binomial(200, 0.5): 50 to 150 holds with a probability far above 1 - 1e-12.
	if stats.Validated+stats.Skipped != requests || stats.Validated < 50 || stats.Validated > 150 {
		t.Fatalf("stats %+v", stats)
	}
}

func TestMiddlewareValidatorDown(t *testing.T) {
	for _, mode := range []svc.Mode{svc.Strict, svc.Warn, svc.Shadow} {
		t.Run(string(mode), func(t *testing.T) {
			client, err := svc.New(closedAddress(t))
			if err != nil {
				t.Fatal(err)
			}
			defer client.Close()
			f := serveWithMiddleware(t, client, svc.MiddlewareConfig{SchemaID: "users", Mode: mode})
			for range 5 {
				if status, body := f.do(t, "POST", "/users", `{"name":"Ada"}`); status != 201 {
					t.Fatalf("the application must answer: %d %s", status, body)
				}
			}
			stats := f.flush(t)
			if stats.ValidatorErrors == 0 || stats.Validated != 0 {
				t.Fatalf("stats %+v", stats)
			}
			if logs := f.logs.String(); strings.Count(logs, "contract validator unavailable") != 1 || !strings.Contains(logs, "UNAVAILABLE") {
				t.Fatalf("a failing validator is logged once per interval:\n%s", logs)
			}
		})
	}
}

func TestMiddlewareValidatorSlow(t *testing.T) {
	client, err := svc.New(silentServer(t))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()

	t.Run("warn never waits and drops beyond the queue", func(t *testing.T) {
		f := serveWithMiddleware(t, client, svc.MiddlewareConfig{
			SchemaID: "users", Mode: svc.Warn, Workers: 1, QueueSize: 2, ValidationTimeout: time.Second,
		})
		// More than the queue, the batch being formed and the batch in flight hold.
		const requests = 2 + 2*svc.DefaultMaxValidationBatch + 200
		start := time.Now()
		for range requests {
			if status, _ := f.do(t, "GET", "/users/1", ""); status != 200 {
				t.Fatalf("status %d", status)
			}
		}
		if elapsed := time.Since(start); elapsed > 10*time.Second {
			t.Fatalf("%d requests took %s behind a hanging validator", requests, elapsed)
		}
		stats := f.flush(t)
		if stats.Dropped == 0 || stats.ValidatorErrors == 0 || stats.Dropped+stats.ValidatorErrors != requests {
			t.Fatalf("stats %+v", stats)
		}
	})
	t.Run("strict lets the request through after its check timeout", func(t *testing.T) {
		f := serveWithMiddleware(t, client, svc.MiddlewareConfig{
			SchemaID: "users", Mode: svc.Strict, RequestCheckTimeout: 200 * time.Millisecond, ValidationTimeout: 200 * time.Millisecond,
		})
		start := time.Now()
		if status, _ := f.do(t, "POST", "/users", `{"name":"Ada"}`); status != 201 {
			t.Fatalf("status %d", status)
		}
		if elapsed := time.Since(start); elapsed > 3*time.Second {
			t.Fatalf("the request check was not bounded: %s", elapsed)
		}
	})
}

func TestMiddlewareConfigErrors(t *testing.T) {
	client := newClient(t)
	for _, config := range []svc.MiddlewareConfig{
		{},
		{SchemaID: "users", Mode: "loud"},
		{SchemaID: "users", SampleRate: 1.5},
		{SchemaID: "users", IncludePaths: []string{"users/*"}},
		{SchemaID: "users", QueueSize: -1},
	} {
		if _, err := svc.NewMiddleware(client, config); err == nil {
			t.Errorf("%+v was accepted", config)
		}
	}
}

func TestMiddlewareCloseIsIdempotent(t *testing.T) {
	client, schemaID := newBoundClient(t)
	f := serveWithMiddleware(t, client, svc.MiddlewareConfig{SchemaID: schemaID})
	if err := f.middleware.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.middleware.Close(); err != nil {
		t.Fatal(err)
	}
	// Traffic still flows after Close, unvalidated.
	if status, _ := f.do(t, "GET", "/users/1", ""); status != 200 {
		t.Fatalf("status %d", status)
	}
	if stats := f.middleware.Stats(); stats.Dropped != 1 {
		t.Fatalf("stats %+v", stats)
	}
}

func TestMiddlewareKeepsTheResponseWriterCapabilities(t *testing.T) {
	client, schemaID := newBoundClient(t)
	middleware, err := svc.NewMiddleware(client, svc.MiddlewareConfig{SchemaID: schemaID, Mode: svc.Shadow})
	if err != nil {
		t.Fatal(err)
	}
	defer middleware.Close()
	server := httptest.NewServer(middleware.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Handlers that stream assert http.Flusher; others reach the connection through
		// http.ResponseController, which needs Unwrap.
		if err := http.NewResponseController(w).SetWriteDeadline(time.Now().Add(time.Minute)); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"status":`)
		w.(http.Flusher).Flush()
		fmt.Fprint(w, `"ok"}`)
	})))
	defer server.Close()
	response, err := server.Client().Get(server.URL + "/health")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(response.Body)
	response.Body.Close()
	if response.StatusCode != 200 || string(body) != `{"status":"ok"}` {
		t.Fatalf("%d %s", response.StatusCode, body)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if err := middleware.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	// The body written in two parts was validated whole.
	if stats := middleware.Stats(); stats.Validated != 1 || stats.Violations != 0 {
		t.Fatalf("stats %+v", stats)
	}
}

func TestMiddlewareStrictBodyOverLimit(t *testing.T) {
	client, schemaID := newBoundClient(t)
	f := serveWithMiddleware(t, client, svc.MiddlewareConfig{SchemaID: schemaID, Mode: svc.Strict, MaxBodyBytes: 16})
	// Not checked (over the limit) and handed to the application whole.
	status, body := f.do(t, "POST", "/users", `{"name":"Ada","email":"ada@example.com"}`)
	if status != 201 || !strings.Contains(body, "ada@example.com") {
		t.Fatalf("%d %s", status, body)
	}
	if stats := f.flush(t); stats.Validated != 0 || stats.Skipped != 2 {
		t.Fatalf("stats %+v", stats)
	}
}
