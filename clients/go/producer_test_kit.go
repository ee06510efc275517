package svc

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// TB is the part of testing.TB that ProducerTestKit uses (*testing.T and *testing.B satisfy it).
type TB interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Cleanup(func())
	Context() context.Context
}

// ProducerTestKit checks, in a provider's own tests, that the responses its handlers produce
// follow the registered schema (ValidateProducerResponse: the response only).
type ProducerTestKit struct {
	client   *Client
	schemaID string
	version  string
}

// NewProducerTestKit connects to the svc server at address for schemaID (latest version; see
// [ProducerTestKit.AtVersion]). The client is closed when the test ends; a client that cannot be
// created fails the test at once.
func NewProducerTestKit(t TB, address, schemaID string, options ...Option) *ProducerTestKit {
	t.Helper()
	if schemaID == "" {
		t.Fatalf("svc: NewProducerTestKit needs a schema id")
	}
	client, err := New(address, options...)
	if err != nil {
		t.Fatalf("svc: NewProducerTestKit: %v", err)
	}
	t.Cleanup(func() { _ = client.Close() })
	return &ProducerTestKit{client: client, schemaID: schemaID}
}

// AtVersion is a kit that checks against the given version of the schema.
func (k *ProducerTestKit) AtVersion(version string) *ProducerTestKit {
	return &ProducerTestKit{client: k.client, schemaID: k.schemaID, version: version}
}

// ValidateResponse validates a response of method on the real path (/users/42); the result says
// whether it follows the schema. Errors are transport failures only.
func (k *ProducerTestKit) ValidateResponse(ctx context.Context, method, path string, response Response) (ValidationResult, error) {
	return k.client.ValidateProducerResponse(ctx, Request{Method: method, Path: path}, response, ForSchema(k.schemaID, k.version))
}

// AssertResponse fails the test, listing the violations, when the response does not follow the
// schema, and stops it when the validator cannot be reached. It reports whether the response is valid.
func (k *ProducerTestKit) AssertResponse(t TB, method, path string, response Response) bool {
	t.Helper()
	result, err := k.ValidateResponse(t.Context(), method, path, response)
	if err != nil {
		t.Fatalf("svc: validating the response of %s %s: %v", method, path, err)
		return false
	}
	if !result.Valid {
		t.Errorf("svc: the response of %s %s (%d) violates schema %s %s:\n  - %s",
			method, path, response.StatusCode, k.schemaID, result.ValidatedAgainstVersion, strings.Join(result.Errors, "\n  - "))
	}
	return result.Valid
}

// AssertHTTPResponse is AssertResponse for a response of net/http (httptest.ResponseRecorder's
// Result(), or an http.Client's answer); it reads and closes the body.
func (k *ProducerTestKit) AssertHTTPResponse(t TB, method, path string, response *http.Response) bool {
	t.Helper()
	converted, err := ResponseFromHTTP(response)
	if err != nil {
		t.Fatalf("svc: %v", err)
		return false
	}
	return k.AssertResponse(t, method, path, converted)
}

// ResponseFromHTTP reads (and closes) an http.Response into a Response for the validator.
func ResponseFromHTTP(response *http.Response) (Response, error) {
	defer response.Body.Close()
	body, err := io.ReadAll(io.LimitReader(response.Body, MaxMessageBytes))
	if err != nil {
		return Response{}, fmt.Errorf("reading the response body: %w", err)
	}
	converted := Response{StatusCode: response.StatusCode, Header: response.Header}
	if len(body) > 0 {
		converted.Body = body
	}
	return converted, nil
}
