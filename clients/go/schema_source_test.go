package svc_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// A schema URL's user name, password and query values never reach an error message: they are
// often CI credentials, and the message ends up in logs.
func TestSchemaURLSecretsStayOutOfErrors(t *testing.T) {
	notFound := httptest.NewServer(http.NotFoundHandler())
	defer notFound.Close()
	served := strings.TrimPrefix(notFound.URL, "http://")
	closed := closedAddress(t)
	tests := []struct {
		name, source, shown string
	}{
		{"unreachable", "http://ci:hunter2@" + closed + "/openapi.yaml?token=abc123&v=2", "http://***@" + closed + "/openapi.yaml?token=***&v=***"},
		{"404", "http://ci:hunter2@" + served + "/openapi.yaml?token=abc123", "http://***@" + served + "/openapi.yaml?token=***: HTTP 404"},
		{"not a URL", "http://ci:hunter2@127.0.0.1:port/openapi.yaml?token=abc123", "cannot fetch the schema from an http(s) URL that is not valid"},
	}
	client := newClient(t)
	for _, test := range tests {
		t.Run(test.name, func(t *testing.T) {
			_, err := client.RegisterSchema(t.Context(), uniqueSchemaID(t), test.source, nil)
			if status.Code(err) != codes.InvalidArgument {
				t.Fatalf("got %v", err)
			}
			message := err.Error()
			if strings.Contains(message, "ci:") || strings.Contains(message, "hunter2") || strings.Contains(message, "abc123") || !strings.Contains(message, test.shown) {
				t.Fatalf("the message names a secret or not %q: %s", test.shown, message)
			}
		})
	}
}
