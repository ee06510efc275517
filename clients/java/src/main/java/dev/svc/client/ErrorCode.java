package dev.svc.client;

import io.grpc.Status;

/**
 * The code of a {@link ContractValidatorException}: a gRPC status name for anything the transport or
 * the server answered with a status, or {@link #REJECTED} when the server answered normally but refused
 * the operation ({@code success: false}, for example {@code Invalid schema: ...}).
 */
public enum ErrorCode {
    CANCELLED,
    UNKNOWN,
    INVALID_ARGUMENT,
    DEADLINE_EXCEEDED,
    NOT_FOUND,
    ALREADY_EXISTS,
    PERMISSION_DENIED,
    RESOURCE_EXHAUSTED,
    FAILED_PRECONDITION,
    ABORTED,
    OUT_OF_RANGE,
    UNIMPLEMENTED,
    INTERNAL,
    UNAVAILABLE,
    DATA_LOSS,
    UNAUTHENTICATED,
    /** The server answered, and refused the operation ({@code success: false}). */
    REJECTED;

    /** The code of a gRPC status; {@code OK} (never an error) maps to {@link #UNKNOWN}. */
    public static ErrorCode of(Status.Code code) {
        return code == Status.Code.OK ? UNKNOWN : valueOf(code.name());
    }
}
