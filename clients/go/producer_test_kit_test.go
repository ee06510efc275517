package svc_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	svc "github.com/svc-contracts/svc/clients/go"
)

// recordingTB stands in for a *testing.T whose failures the test wants to see, not suffer.
type recordingTB struct {
	ctx      context.Context
	errors   []string
	fatals   []string
	cleanups []func()
}

func (r *recordingTB) Helper() {}
func (r *recordingTB) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recordingTB) Fatalf(format string, args ...any) {
	r.fatals = append(r.fatals, fmt.Sprintf(format, args...))
}
func (r *recordingTB) Cleanup(f func())         { r.cleanups = append(r.cleanups, f) }
func (r *recordingTB) Context() context.Context { return r.ctx }

func TestProducerTestKit(t *testing.T) {
	_, schemaID := newBoundClient(t)
	kit := svc.NewProducerTestKit(t, sharedServer.address, schemaID)

	// A real handler's responses, recorded.
	app := &usersApp{}
	for _, id := range []string{"42", "7"} {
		recorder := httptest.NewRecorder()
		app.ServeHTTP(recorder, httptest.NewRequest("GET", "/users/"+id, nil))
		if !kit.AssertHTTPResponse(t, "GET", "/users/"+id, recorder.Result()) {
			t.Fatalf("user %s was reported invalid", id)
		}
	}

	failing := &recordingTB{ctx: t.Context()}
	recorder := httptest.NewRecorder()
	app.ServeHTTP(recorder, httptest.NewRequest("GET", "/users/13", nil))
	if kit.AssertHTTPResponse(failing, "GET", "/users/13", recorder.Result()) {
		t.Fatal("a response without its id was reported valid")
	}
	if len(failing.errors) != 1 || !strings.Contains(failing.errors[0], "/users/13") || !strings.Contains(failing.errors[0], "id") {
		t.Fatalf("the failure must list the violations: %q", failing.errors)
	}

	result, err := kit.AtVersion("1.0.0").ValidateResponse(t.Context(), "GET", "/users/13", svc.Response{StatusCode: 404})
	if err != nil || !result.Valid {
		t.Fatalf("a documented 404: %+v %v", result, err)
	}

	down := &recordingTB{ctx: t.Context()}
	downKit := svc.NewProducerTestKit(down, closedAddress(t), schemaID)
	downKit.AssertResponse(down, "GET", "/users/1", svc.Response{StatusCode: 200})
	if len(down.fatals) != 1 || !strings.Contains(down.fatals[0], "UNAVAILABLE") {
		t.Fatalf("an unreachable validator must stop the test: %q", down.fatals)
	}
	for _, cleanup := range down.cleanups {
		cleanup()
	}
}
