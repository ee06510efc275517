package svc_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	svc "github.com/svc-contracts/svc/clients/go"
)

// svcAddress is the svc server the examples talk to (the test server; localhost:9550 by default).
func svcAddress() string { return sharedServer.address }

// A consumer test: the consumer's HTTP client goes through a Capture that validates every
// exchange against the provider's contract, and what it used is registered for can-i-deploy.
func Example_consumerTest() {
	ctx := context.Background()
	client, err := svc.New(svcAddress())
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	if _, err := client.RegisterSchemaWithVersion(ctx, "users-example", "testdata/users-v1.yaml", "1.0.0"); err != nil {
		log.Fatal(err)
	}

	// The provider (here a stand-in served on loopback) and the consumer's HTTP client.
	provider := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":42,"name":"Ada","email":"ada@example.com"}`)
	}))
	defer provider.Close()
	capture := &svc.Capture{Validator: client, AutoValidate: true}
	response, err := capture.Client().Get(provider.URL + "/users/42")
	if err != nil {
		log.Fatal(err) // a validator that cannot be reached fails the test here
	}
	response.Body.Close()

	interaction := capture.Interactions()[0]
	fmt.Println("valid:", interaction.Validation.Valid)

	consumer, err := client.RegisterConsumerFromInteractions(ctx, capture.Interactions(),
		svc.ConsumerConfig{ConsumerID: "web", ConsumerVersion: "1.4.0"})
	if err != nil {
		log.Fatal(err)
	}
	for _, usage := range consumer.UsedEndpoints {
		fmt.Println(usage.Method, usage.Path, usage.UsedFields)
	}
	// Output:
	// valid: true
	// GET /users/{id} [email id name]
}

// Producer middleware: live traffic validated in the background; warn mode logs violations.
func Example_middleware() {
	client, err := svc.New(svcAddress())
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	if _, err := client.RegisterSchema(context.Background(), "users-middleware-example", "testdata/users-v1.yaml", nil); err != nil {
		log.Fatal(err)
	}

	validation, err := svc.NewMiddleware(client, svc.MiddlewareConfig{
		SchemaID:     "users-middleware-example",
		Mode:         svc.Warn, // shadow → warn → strict
		ExcludePaths: []string{"/internal/**"},
		OnViolation: func(v svc.Violation) {
			fmt.Println("violation:", v.Method, v.Path, len(v.Errors) > 0)
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer validation.Close()

	mux := http.NewServeMux()
	mux.HandleFunc("GET /users/{id}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"not a number","name":"Ada","email":"ada@example.com"}`)
	})
	server := httptest.NewServer(validation.Handler(mux)) // chi: r.Use(validation.Handler)
	defer server.Close()

	response, err := http.Get(server.URL + "/users/42")
	if err != nil {
		log.Fatal(err)
	}
	response.Body.Close()
	fmt.Println("status:", response.StatusCode)

	_ = validation.Flush(context.Background()) // in tests; production code simply goes on
	fmt.Printf("validated %d, violations %d\n", validation.Stats().Validated, validation.Stats().Violations)
	// Output:
	// status: 200
	// violation: GET /users/42 true
	// validated 1, violations 1
}
