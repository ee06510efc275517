package svc_test

import (
	"encoding/json"
	"errors"
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	svc "github.com/svc-contracts/svc/clients/go"
)

// usersProvider is the real HTTP API a consumer under test calls.
func usersProvider(t *testing.T) *httptest.Server {
	t.Helper()
	server := httptest.NewServer(&usersApp{})
	t.Cleanup(server.Close)
	return server
}

func TestCaptureRecordsAndValidates(t *testing.T) {
	client, schemaID := newBoundClient(t)
	provider := usersProvider(t)
	var failures []svc.Interaction
	capture := &svc.Capture{
		Validator:    client,
		AutoValidate: true,
		OnValidationFailure: func(result svc.ValidationResult, interaction svc.Interaction) {
			failures = append(failures, interaction)
		},
	}
	httpClient := capture.Client()

	response, err := httpClient.Get(provider.URL + "/users/42?expand=posts")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(response.Body)
	response.Body.Close()
	if !strings.Contains(string(body), `"id":42`) {
		t.Fatalf("the caller must read the body as usual: %s", body)
	}
	response, err = httpClient.Post(provider.URL+"/users", "application/json", strings.NewReader(`{"name":"Ada","email":"ada@example.com"}`))
	if err != nil {
		t.Fatal(err)
	}
	response.Body.Close()
	response, err = httpClient.Get(provider.URL + "/users/13")
	if err != nil {
		t.Fatal(err)
	}
	response.Body.Close()

	interactions := capture.Interactions()
	if len(interactions) != 3 {
		t.Fatalf("%d interactions captured", len(interactions))
	}
	first := interactions[0]
	if first.Request.Path != "/users/42?expand=posts" || first.Response.StatusCode != 200 || first.Validation == nil || !first.Validation.Valid {
		t.Fatalf("first interaction %+v", first)
	}
	if body, ok := interactions[1].Request.Body.(json.RawMessage); !ok || string(body) != `{"name":"Ada","email":"ada@example.com"}` {
		t.Fatalf("the request body was not recorded: %+v", interactions[1].Request)
	}
	if len(failures) != 1 || failures[0].Request.Path != "/users/13" || interactions[2].Validation.Valid {
		t.Fatalf("failures %+v", failures)
	}

	// The captured traffic becomes the consumer's registration, real paths templated.
	registration, err := client.BuildConsumerFromInteractions(t.Context(), interactions, svc.ConsumerConfig{ConsumerID: "web", ConsumerVersion: "1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	if len(registration.UsedEndpoints) != 2 || registration.UsedEndpoints[0].Path != "/users" || registration.UsedEndpoints[1].Path != "/users/{id}" ||
		strings.Join(registration.UsedEndpoints[1].UsedFields, ",") != "email,id,name" || registration.SchemaID != schemaID {
		t.Fatalf("registration %+v", registration)
	}

	capture.Clear()
	if len(capture.Interactions()) != 0 {
		t.Fatal("Clear left interactions")
	}
}

func TestCaptureWithoutValidation(t *testing.T) {
	provider := usersProvider(t)
	capture := &svc.Capture{MaxInteractions: 2, MaxBodyBytes: 20}
	for _, path := range []string{"/users/1", "/users/2", "/internal/status"} {
		response, err := capture.Client().Get(provider.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(response.Body)
		response.Body.Close()
		if len(body) == 0 {
			t.Fatalf("%s: the caller got no body", path)
		}
	}
	interactions := capture.Interactions()
	if len(interactions) != 2 || interactions[0].Request.Path != "/users/2" {
		t.Fatalf("the oldest interaction must be forgotten: %+v", interactions)
	}
	// Over MaxBodyBytes: passed through, not recorded.
	if interactions[0].Response.Body != nil || interactions[1].Response.Body != "not in the contract" {
		t.Fatalf("bodies %#v %#v", interactions[0].Response.Body, interactions[1].Response.Body)
	}
}

func TestCaptureValidatorDown(t *testing.T) {
	provider := usersProvider(t)
	client, err := svc.New(closedAddress(t), svc.WithSchema("users", ""))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	capture := &svc.Capture{Validator: client, AutoValidate: true}
	_, err = capture.Client().Get(provider.URL + "/users/1")
	// A contract test must not pass because nothing was checked.
	if status.Code(err) != codes.Unavailable || errors.Is(err, svc.ErrRejected) {
		t.Fatalf("got %v", err)
	}
}
