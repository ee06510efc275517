package svc

import (
	"errors"
	"fmt"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// ErrRejected matches (with errors.Is) every [*RejectedError].
var ErrRejected = errors.New("svc: operation rejected")

// RejectedError is returned when the server answered normally but refused the operation
// (success: false), for example "Invalid schema: ..." or "Schema not found: ...". It carries no
// gRPC status: status.Code reports codes.Unknown for it, and [Code] reports "REJECTED".
type RejectedError struct {
	// Op is the gRPC operation, such as "RegisterSchema".
	Op string
	// Message is the server's message.
	Message string
}

func (e *RejectedError) Error() string {
	return fmt.Sprintf("svc: %s rejected: %s", e.Op, e.Message)
}

// Is reports whether target is [ErrRejected].
func (e *RejectedError) Is(target error) bool { return target == ErrRejected }

func rejected(op, message string) error {
	if message == "" {
		message = op + " was refused without a message"
	}
	return &RejectedError{Op: op, Message: message}
}

// CodeRejected is what [Code] reports for a [*RejectedError].
const CodeRejected = "REJECTED"

// Code is the name of an error's code as every svc client spells it: "REJECTED" for a refused
// operation, else the gRPC status name ("UNAVAILABLE", "DEADLINE_EXCEEDED", ...); "" for nil.
func Code(err error) string {
	if err == nil {
		return ""
	}
	if errors.Is(err, ErrRejected) {
		return CodeRejected
	}
	return codeName(status.Code(err))
}

// Message is an error's message without the code: the server's message for a refused operation or
// a status error, else err.Error().
func Message(err error) string {
	var rejectedErr *RejectedError
	if errors.As(err, &rejectedErr) {
		return rejectedErr.Message
	}
	if s, ok := status.FromError(err); ok {
		return s.Message()
	}
	return err.Error()
}

// codeNames are the canonical gRPC status names (the proto enum's spelling, as grpc-js reports them).
var codeNames = [...]string{
	codes.OK:                 "OK",
	codes.Canceled:           "CANCELLED",
	codes.Unknown:            "UNKNOWN",
	codes.InvalidArgument:    "INVALID_ARGUMENT",
	codes.DeadlineExceeded:   "DEADLINE_EXCEEDED",
	codes.NotFound:           "NOT_FOUND",
	codes.AlreadyExists:      "ALREADY_EXISTS",
	codes.PermissionDenied:   "PERMISSION_DENIED",
	codes.ResourceExhausted:  "RESOURCE_EXHAUSTED",
	codes.FailedPrecondition: "FAILED_PRECONDITION",
	codes.Aborted:            "ABORTED",
	codes.OutOfRange:         "OUT_OF_RANGE",
	codes.Unimplemented:      "UNIMPLEMENTED",
	codes.Internal:           "INTERNAL",
	codes.Unavailable:        "UNAVAILABLE",
	codes.DataLoss:           "DATA_LOSS",
	codes.Unauthenticated:    "UNAUTHENTICATED",
}

func codeName(code codes.Code) string {
	if int(code) < len(codeNames) {
		return codeNames[code]
	}
	return "UNKNOWN"
}

// invalidUse reports a misuse of the library by the calling code (a missing argument).
func invalidUse(format string, args ...any) error {
	return status.Errorf(codes.InvalidArgument, "svc: "+format, args...)
}

// opError adds the operation to a transport or status error; status.Code still sees the code.
func opError(op string, err error) error {
	if err == nil {
		return nil
	}
	return &statusError{op: op, err: err}
}

// statusError wraps a gRPC status error with the operation that failed.
type statusError struct {
	op  string
	err error
}

func (e *statusError) Error() string {
	s := status.Convert(e.err)
	return fmt.Sprintf("svc: %s: %s: %s", e.op, codeName(s.Code()), s.Message())
}

func (e *statusError) Unwrap() error { return e.err }

// GRPCStatus lets status.Code and status.FromError read the code of the wrapped error.
func (e *statusError) GRPCStatus() *status.Status { return status.Convert(e.err) }
