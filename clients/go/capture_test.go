package svc_test

import (
	"compress/gzip"
	"compress/zlib"
	"encoding/json"
	"errors"
	"io"
	"net/http"
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

// encodingProvider answers user 42 compressed with the coding the caller accepts.
func encodingProvider(t *testing.T) *httptest.Server {
	t.Helper()
	server := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		user := []byte(`{"id":42,"name":"Ada","email":"ada@example.com"}`)
		var encoder io.WriteCloser
		switch coding := r.Header.Get("Accept-Encoding"); coding {
		case "gzip":
			encoder = gzip.NewWriter(w)
		case "deflate":
			encoder = zlib.NewWriter(w)
		case "br":
			// Not a coding the Go client can undo; the bytes stand in for brotli.
			w.Header().Set("Content-Encoding", coding)
			_, _ = w.Write([]byte{0x8b, 0x02, 0x80, 0xff})
			return
		default:
			_, _ = w.Write(user)
			return
		}
		w.Header().Set("Content-Encoding", r.Header.Get("Accept-Encoding"))
		_, _ = encoder.Write(user)
		_ = encoder.Close()
	}))
	t.Cleanup(server.Close)
	return server
}

func TestCaptureRecordsTheDecodedBodyOfAnEncodedResponse(t *testing.T) {
	client, _ := newBoundClient(t)
	provider := encodingProvider(t)
	for _, test := range []struct {
		name, acceptEncoding string
		decode               func(io.Reader) (io.Reader, error)
		recorded             bool
	}{
		// Go's transport asks for gzip itself and hands back the decoded body.
		{name: "decompressed by the transport", recorded: true},
		// A caller that asks for an encoding itself reads the encoded bytes.
		{name: "gzip asked by the caller", acceptEncoding: "gzip", recorded: true,
			decode: func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) }},
		{name: "deflate asked by the caller", acceptEncoding: "deflate", recorded: true,
			decode: func(r io.Reader) (io.Reader, error) { return zlib.NewReader(r) }},
		{name: "a coding the client cannot undo", acceptEncoding: "br"},
	} {
		t.Run(test.name, func(t *testing.T) {
			capture := &svc.Capture{Validator: client, AutoValidate: true}
			request, err := http.NewRequestWithContext(t.Context(), "GET", provider.URL+"/users/42", nil)
			if err != nil {
				t.Fatal(err)
			}
			if test.acceptEncoding != "" {
				request.Header.Set("Accept-Encoding", test.acceptEncoding)
			}
			response, err := capture.Client().Do(request)
			if err != nil {
				t.Fatalf("the consumer's call failed: %v", err)
			}
			defer response.Body.Close()
			if test.decode != nil {
				// The caller still gets the bytes it asked for.
				reader, err := test.decode(response.Body)
				if err != nil {
					t.Fatal(err)
				}
				if body, err := io.ReadAll(reader); err != nil || !strings.Contains(string(body), `"id":42`) {
					t.Fatalf("the caller's body: %q %v", body, err)
				}
			}

			interaction := capture.Interactions()[0]
			body, isJSON := interaction.Response.Body.(json.RawMessage)
			if !test.recorded {
				if interaction.Response.Body != nil {
					t.Fatalf("an encoded body was recorded as it is: %#v", interaction.Response.Body)
				}
				return
			}
			if !isJSON || !strings.Contains(string(body), `"email":"ada@example.com"`) {
				t.Fatalf("recorded body %#v", interaction.Response.Body)
			}
			if interaction.Validation == nil || !interaction.Validation.Valid {
				t.Fatalf("validation %+v", interaction.Validation)
			}
			// What was recorded can be validated again later.
			results, err := client.ValidateMany(t.Context(), capture.Interactions())
			if err != nil || !results[0].Valid {
				t.Fatalf("%+v %v", results, err)
			}
		})
	}
}
