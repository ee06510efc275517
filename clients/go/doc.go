// Package svc is the Go client of the svc contract validation service.
//
// A [Client] talks gRPC to an svc server: it registers OpenAPI schemas, validates HTTP interactions
// against them, compares versions, generates fixtures and keeps the consumer registry. Like the
// other svc clients, a client is bound to the schema registered through it (or named with
// [WithSchema]), so consumer tests read Validate(ctx, req, resp) without repeating the schema id.
//
// Failures follow one rule. Transport and status failures are returned as errors that carry their
// gRPC code, so [google.golang.org/grpc/status.Code] understands them (UNAVAILABLE,
// UNAUTHENTICATED, DEADLINE_EXCEEDED, NOT_FOUND, ...). An operation the server answered but refused
// (success: false) returns a [*RejectedError] ([ErrRejected] with errors.Is). A validation failure is
// not an error: it is a [ValidationResult] with Valid false.
//
// Beside the client the package offers:
//   - [ProducerTestKit]: checks a provider's responses against the schema in its own tests;
//   - [Middleware]: producer validation of live traffic for net/http (strict, warn, shadow);
//   - [Capture]: an [net/http.RoundTripper] that records a consumer's interactions, validates them
//     and turns them into a consumer registration ([Client.RegisterConsumerFromInteractions]).
package svc
