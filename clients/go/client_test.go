package svc_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	svc "github.com/svc-contracts/svc/clients/go"
)

const (
	usersV1 = "testdata/users-v1.yaml"
	usersV2 = "testdata/users-v2.yaml"
)

var schemaIDSeq atomic.Int64

// uniqueSchemaID keeps the tests' schemas apart on the shared server.
func uniqueSchemaID(t testing.TB) string {
	name := regexp.MustCompile(`[^a-z0-9]+`).ReplaceAllString(strings.ToLower(t.Name()), "-")
	return fmt.Sprintf("go-%s-%d", strings.Trim(name, "-"), schemaIDSeq.Add(1))
}

func newClient(t testing.TB, options ...svc.Option) *svc.Client {
	t.Helper()
	client, err := svc.New(sharedServer.address, options...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = client.Close() })
	return client
}

// newBoundClient is a client bound to a fresh schema registered from users-v1.yaml as 1.0.0.
func newBoundClient(t testing.TB) (*svc.Client, string) {
	t.Helper()
	client := newClient(t)
	schemaID := uniqueSchemaID(t)
	if _, err := client.RegisterSchemaWithVersion(context.Background(), schemaID, usersV1, "1.0.0"); err != nil {
		t.Fatal(err)
	}
	return client, schemaID
}

func jsonHeader() http.Header { return http.Header{"Content-Type": {"application/json"}} }

var (
	getUser42     = svc.Request{Method: "GET", Path: "/users/42", Header: http.Header{"Accept": {"application/json"}}}
	validUser     = svc.Response{StatusCode: 200, Header: jsonHeader(), Body: map[string]any{"id": 42, "name": "Ada", "email": "ada@example.com"}}
	userWithoutID = svc.Response{StatusCode: 200, Header: jsonHeader(), Body: map[string]any{"name": "Ada", "email": "ada@example.com"}}
)

func TestRegisterSchema(t *testing.T) {
	ctx := t.Context()
	client := newClient(t)
	schemaID := uniqueSchemaID(t)

	registration, err := client.RegisterSchema(ctx, schemaID, usersV1, nil)
	if err != nil {
		t.Fatal(err)
	}
	metadata := registration.Metadata
	if metadata.SchemaID != schemaID || metadata.SchemaVersion != "1.0.0" || len(metadata.SchemaHash) != 64 || metadata.EndpointCount != 5 {
		t.Fatalf("unexpected metadata %+v", metadata)
	}
	if bound, version := client.Schema(); bound != schemaID || version != "1.0.0" {
		t.Fatalf("the client is bound to %s %s", bound, version)
	}

	// A document served over HTTP registers the same way; the compatibility check reports what v2 breaks.
	documents := httptest.NewServer(http.FileServer(http.Dir("testdata")))
	defer documents.Close()
	registration, err = client.RegisterSchema(ctx, schemaID, documents.URL+"/users-v2.yaml", &svc.RegisterSchemaOptions{
		Version: "2.0.0", CheckCompatibility: true, Ownership: &svc.SchemaOwnership{Owner: "ada", Team: "identity"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(registration.BreakingChanges) == 0 || registration.Metadata.Ownership == nil || registration.Metadata.Ownership.Team != "identity" {
		t.Fatalf("unexpected registration %+v", registration)
	}

	_, err = client.RegisterSchema(ctx, uniqueSchemaID(t), "testdata/not-openapi.yaml", nil)
	var refused *svc.RejectedError
	if !errors.As(err, &refused) || !errors.Is(err, svc.ErrRejected) || svc.Code(err) != "REJECTED" || !strings.HasPrefix(refused.Message, "Invalid schema") {
		t.Fatalf("an invalid document gave %v", err)
	}
	if _, err := client.RegisterSchema(ctx, schemaID, "testdata/missing.yaml", nil); status.Code(err) != codes.InvalidArgument {
		t.Fatalf("a missing file gave %v", err)
	}
}

func TestGetAndListSchemas(t *testing.T) {
	ctx := t.Context()
	client, schemaID := newBoundClient(t)
	schema, found, err := client.GetSchema(ctx, schemaID, "")
	if err != nil || !found || !strings.Contains(schema.Content, "Users API") {
		t.Fatalf("GetSchema: %v %v %.40q", err, found, schema.Content)
	}
	if _, found, err := client.GetSchema(ctx, schemaID, "9.9.9"); err != nil || found {
		t.Fatalf("an unknown version: found %v, %v", found, err)
	}
	page, err := client.ListSchemas(ctx, &svc.ListSchemasOptions{PageSize: 500})
	if err != nil {
		t.Fatal(err)
	}
	listed := false
	for _, s := range page.Schemas {
		listed = listed || s.SchemaID == schemaID
	}
	if !listed {
		t.Fatalf("%s is not among the %d listed schemas", schemaID, len(page.Schemas))
	}
}

func TestValidate(t *testing.T) {
	ctx := t.Context()
	client, schemaID := newBoundClient(t)
	tests := []struct {
		name      string
		request   svc.Request
		response  svc.Response
		valid     bool
		errorPart string
	}{
		{"valid", getUser42, validUser, true, ""},
		{"missing required response field", getUser42, userWithoutID, false, "id"},
		{"path parameter of the wrong type", svc.Request{Method: "get", Path: "/users/abc"}, validUser, false, "id"},
		{"request body already encoded", svc.Request{Method: "POST", Path: "/users", Header: jsonHeader(), Body: `{"name":"Ada","email":"ada@example.com"}`},
			svc.Response{StatusCode: 201, Header: jsonHeader(), Body: []byte(`{"id":1,"name":"Ada","email":"ada@example.com"}`)}, true, ""},
		{"request body missing a field", svc.Request{Method: "POST", Path: "/users", Body: map[string]any{"name": "Ada"}},
			svc.Response{StatusCode: 400}, false, "email"},
	}
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			result, err := client.Validate(ctx, test.request, test.response)
			if err != nil {
				t.Fatal(err)
			}
			if result.Valid != test.valid || result.ValidatedAgainstVersion != "1.0.0" || !strings.Contains(strings.Join(result.Errors, "\n"), test.errorPart) {
				t.Fatalf("got %+v", result)
			}
		})
	}

	t.Run("request alone", func(t *testing.T) {
		result, err := client.ValidateRequest(ctx, svc.Request{Method: "GET", Path: "/users?limit=500"})
		if err != nil || result.Valid {
			t.Fatalf("a limit over the maximum: %+v %v", result, err)
		}
	})
	t.Run("producer response", func(t *testing.T) {
		result, err := client.ValidateProducerResponse(ctx, svc.Request{Method: "GET", Path: "/users/42"}, userWithoutID, svc.ForSchema(schemaID, "1.0.0"))
		if err != nil || result.Valid {
			t.Fatalf("%+v %v", result, err)
		}
	})
	t.Run("unknown schema is a result", func(t *testing.T) {
		result, err := client.Validate(ctx, getUser42, validUser, svc.ForSchema("go-no-such-schema", ""))
		if err != nil || result.Valid || !strings.Contains(strings.Join(result.Errors, ""), "Schema not found") {
			t.Fatalf("%+v %v", result, err)
		}
	})
	t.Run("unbound client", func(t *testing.T) {
		_, err := newClient(t).Validate(ctx, getUser42, validUser)
		if status.Code(err) != codes.FailedPrecondition {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("misuse", func(t *testing.T) {
		_, err := client.Validate(ctx, svc.Request{Path: "/users"}, validUser)
		if status.Code(err) != codes.InvalidArgument {
			t.Fatalf("got %v", err)
		}
	})
}

func TestValidateMany(t *testing.T) {
	client, _ := newBoundClient(t)
	const count = 300
	interactions := make([]svc.Interaction, count)
	for i := range interactions {
		response := validUser
		if i%3 == 0 {
			response = userWithoutID
		}
		interactions[i] = svc.Interaction{Request: svc.Request{Method: "GET", Path: fmt.Sprintf("/users/%d", i)}, Response: response}
	}
	results, err := client.ValidateMany(t.Context(), interactions)
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != count {
		t.Fatalf("%d results for %d interactions", len(results), count)
	}
	for i, result := range results {
		if result.Valid != (i%3 != 0) {
			t.Fatalf("result %d in the wrong place: %+v", i, result)
		}
	}
	if results, err := client.ValidateMany(t.Context(), nil); err != nil || len(results) != 0 {
		t.Fatalf("an empty batch: %v %v", results, err)
	}
}

func TestCompareSchemas(t *testing.T) {
	ctx := t.Context()
	client, schemaID := newBoundClient(t)
	if _, err := client.RegisterSchemaWithVersion(ctx, schemaID, usersV2, "2.0.0"); err != nil {
		t.Fatal(err)
	}
	result, err := client.CompareSchemas(ctx, schemaID, "1.0.0", "2.0.0")
	if err != nil {
		t.Fatal(err)
	}
	types := map[string]bool{}
	for _, change := range result.BreakingChanges {
		types[change.Type] = true
	}
	if result.Compatible || !types["ENDPOINT_REMOVED"] || !types["REQUIRED_PARAMETER_ADDED"] || result.OldSchema.SchemaVersion != "1.0.0" || result.NewSchema.SchemaVersion != "2.0.0" {
		t.Fatalf("unexpected comparison %+v", result)
	}
	if _, err := client.CompareSchemas(ctx, schemaID, "1.0.0", "7.0.0"); !errors.Is(err, svc.ErrRejected) {
		t.Fatalf("an unknown version gave %v", err)
	}
}

func TestGenerate(t *testing.T) {
	ctx := t.Context()
	client, _ := newBoundClient(t)
	fixture, err := client.GenerateFixture(ctx, "get", "/users/{id}", nil)
	if err != nil {
		t.Fatal(err)
	}
	if fixture.Response.StatusCode != 200 || fixture.Response.Body.(map[string]any)["name"] != "Ada" || !strings.HasPrefix(fixture.Request.Path, "/users/") {
		t.Fatalf("unexpected fixture %+v", fixture)
	}
	// What is generated validates.
	result, err := client.Validate(ctx, svc.Request{Method: fixture.Request.Method, Path: fixture.Request.Path},
		svc.Response{StatusCode: fixture.Response.StatusCode, Header: jsonHeader(), Body: fixture.Response.RawBody})
	if err != nil || !result.Valid {
		t.Fatalf("the generated fixture does not validate: %+v %v", result, err)
	}
	notFound, err := client.GenerateResponse(ctx, "GET", "/users/{id}", &svc.GenerateOptions{StatusCode: 404})
	if err != nil || notFound.StatusCode != 404 {
		t.Fatalf("%+v %v", notFound, err)
	}
	generated, err := client.GenerateResponse(ctx, "GET", "/health", &svc.GenerateOptions{IgnoreExamples: true})
	if err != nil || generated.Body.(map[string]any)["status"] == "" {
		t.Fatalf("%+v %v", generated, err)
	}
	body, err := client.GenerateRequestBody(ctx, "POST", "/users", nil)
	if err != nil || body.(map[string]any)["email"] == nil {
		t.Fatalf("%+v %v", body, err)
	}
	if _, err := client.GenerateFixture(ctx, "GET", "/nowhere", nil); svc.Code(err) != svc.CodeRejected {
		t.Fatalf("an unknown path gave %v", err)
	}
}

func TestListEndpoints(t *testing.T) {
	client, schemaID := newBoundClient(t)
	endpoints, err := client.ListEndpoints(t.Context(), svc.ForSchema(schemaID, ""))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range endpoints {
		found = found || (e.Method == "GET" && e.Path == "/users/{id}" && e.OperationID == "getUser" && e.Summary == "Get a user")
	}
	if len(endpoints) != 5 || !found {
		t.Fatalf("unexpected endpoints %+v", endpoints)
	}
}

func TestConsumerRegistry(t *testing.T) {
	ctx := t.Context()
	client, schemaID := newBoundClient(t)
	info, err := client.RegisterConsumer(ctx, svc.ConsumerRegistration{
		ConsumerID: "web", ConsumerVersion: "1.0.0", SchemaID: schemaID, SchemaVersion: "1.0.0", Environment: "prod",
		UsedEndpoints: []svc.EndpointUsage{{Method: "get", Path: "/users/{id}/posts", UsedFields: []string{"[].title"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if info.Environment != "prod" || info.RegisteredAt == 0 || info.UsedEndpoints[0].Method != "GET" {
		t.Fatalf("unexpected registration %+v", info)
	}
	if _, err := client.RegisterConsumer(ctx, svc.ConsumerRegistration{ConsumerID: "web", ConsumerVersion: "1", SchemaID: schemaID, SchemaVersion: "4.0.0"}); !errors.Is(err, svc.ErrRejected) {
		t.Fatalf("an unknown schema version gave %v", err)
	}
	consumers, err := client.ListConsumers(ctx, schemaID, "prod")
	if err != nil || len(consumers) != 1 || consumers[0].ConsumerID != "web" {
		t.Fatalf("%+v %v", consumers, err)
	}

	if _, err := client.RegisterSchemaWithVersion(ctx, schemaID, usersV2, "2.0.0"); err != nil {
		t.Fatal(err)
	}
	verdict, err := client.CanIDeploy(ctx, schemaID, "2.0.0", "prod")
	if err != nil {
		t.Fatal(err)
	}
	if verdict.SafeToDeploy || len(verdict.AffectedConsumers) != 1 || !verdict.AffectedConsumers[0].WillBreak {
		t.Fatalf("the removed endpoint the consumer uses must block the deployment: %+v", verdict)
	}
	if verdict, err := client.CanIDeploy(ctx, schemaID, "2.0.0", "staging"); err != nil || !verdict.SafeToDeploy {
		t.Fatalf("no consumer in staging: %+v %v", verdict, err)
	}

	if err := client.DeregisterConsumer(ctx, "web", schemaID, "prod"); err != nil {
		t.Fatal(err)
	}
	if err := client.DeregisterConsumer(ctx, "web", schemaID, "prod"); !errors.Is(err, svc.ErrRejected) {
		t.Fatalf("deregistering twice gave %v", err)
	}
}

func TestConsumerFromInteractions(t *testing.T) {
	ctx := t.Context()
	client, schemaID := newBoundClient(t)
	interactions := []svc.Interaction{
		{Request: svc.Request{Method: "GET", Path: "/users/42?expand=posts"}, Response: svc.Response{StatusCode: 200, Body: `{"id":42,"name":"Ada"}`}},
		{Request: svc.Request{Method: "get", Path: "/api/v1/users/7"}, Response: svc.Response{StatusCode: 200, Body: map[string]any{"email": "x@example.com"}}},
		{Request: svc.Request{Method: "GET", Path: "/users/7/posts"}, Response: svc.Response{StatusCode: 200, Body: []any{map[string]any{"id": 1, "meta": map[string]any{"tags": []any{"a"}}}}}},
		{Request: svc.Request{Method: "DELETE", Path: "/users/7"}, Response: svc.Response{StatusCode: 204}},
	}
	registration, err := client.BuildConsumerFromInteractions(ctx, interactions, svc.ConsumerConfig{ConsumerID: "web", ConsumerVersion: "1.2.3"})
	if err != nil {
		t.Fatal(err)
	}
	want := []svc.EndpointUsage{
		{Method: "GET", Path: "/users/{id}", UsedFields: []string{"email", "id", "name"}},
		{Method: "GET", Path: "/users/{id}/posts", UsedFields: []string{"[].id", "[].meta", "[].meta.tags"}},
	}
	if fmt.Sprint(registration.UsedEndpoints) != fmt.Sprint(want) || registration.Environment != "dev" || registration.SchemaVersion != "1.0.0" || registration.SchemaID != schemaID {
		t.Fatalf("got %+v", registration)
	}
	info, err := client.RegisterConsumerFromInteractions(ctx, interactions, svc.ConsumerConfig{ConsumerID: "web", ConsumerVersion: "1.2.3", Environment: "staging"})
	if err != nil || info.Environment != "staging" || len(info.UsedEndpoints) != 2 {
		t.Fatalf("%+v %v", info, err)
	}
	if _, err := client.BuildConsumerFromInteractions(ctx, interactions, svc.ConsumerConfig{ConsumerID: "web", ConsumerVersion: "1", SchemaID: "go-missing"}); status.Code(err) != codes.NotFound {
		t.Fatalf("an unknown schema gave %v", err)
	}
}

func TestClose(t *testing.T) {
	client, _ := newBoundClient(t)
	if err := client.Close(); err != nil {
		t.Fatal(err)
	}
	if err := client.Close(); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
	if _, err := client.ListEndpoints(t.Context()); status.Code(err) != codes.FailedPrecondition {
		t.Fatalf("a call after Close gave %v", err)
	}
}

func TestServerDown(t *testing.T) {
	client, err := svc.New(closedAddress(t), svc.WithSchema("users", ""), svc.WithDeadline(5*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	_, err = client.Validate(t.Context(), getUser42, validUser)
	if status.Code(err) != codes.Unavailable || svc.Code(err) != "UNAVAILABLE" {
		t.Fatalf("got %v", err)
	}
	if _, err := client.ValidateMany(t.Context(), []svc.Interaction{{Request: getUser42, Response: validUser}}); status.Code(err) != codes.Unavailable {
		t.Fatalf("ValidateMany got %v", err)
	}
}

// silentServer accepts connections and never answers: a validator that hangs.
func silentServer(t testing.TB) string {
	t.Helper()
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			conn, err := listener.Accept()
			if err != nil {
				return
			}
			conns = append(conns, conn)
		}
	}()
	t.Cleanup(func() {
		_ = listener.Close()
		<-done
		for _, conn := range conns {
			_ = conn.Close()
		}
	})
	return listener.Addr().String()
}

func TestDeadline(t *testing.T) {
	client, err := svc.New(silentServer(t), svc.WithSchema("users", ""), svc.WithDeadline(300*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	start := time.Now()
	_, err = client.Validate(t.Context(), getUser42, validUser)
	if status.Code(err) != codes.DeadlineExceeded {
		t.Fatalf("got %v", err)
	}
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Fatalf("the deadline was not kept: %s", elapsed)
	}
	// A shorter deadline in the context wins.
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if _, err := client.ListEndpoints(ctx); status.Code(err) != codes.DeadlineExceeded {
		t.Fatalf("got %v", err)
	}
}
