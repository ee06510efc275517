package dev.svc.client;

import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;

/**
 * The one exception of the client library. {@link #code()} is the gRPC status of a transport or
 * status failure ({@code UNAVAILABLE}, {@code UNAUTHENTICATED}, {@code DEADLINE_EXCEEDED}, ...) or
 * {@link ErrorCode#REJECTED} when the server refused the operation. Validation failures are never
 * exceptions: they come back as a {@link ValidationResult} with {@code valid() == false}.
 */
public class ContractValidatorException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;
    private final String details;

    public ContractValidatorException(ErrorCode code, String details) {
        this(code, details, null);
    }

    public ContractValidatorException(ErrorCode code, String details, Throwable cause) {
        super(code + ": " + details, cause);
        this.code = code;
        this.details = details;
    }

    public ErrorCode code() {
        return code;
    }

    /** The server's (or the library's) message without the code prefix. */
    public String details() {
        return details;
    }

    /** Turns what grpc-java reports into the client's exception. */
    public static ContractValidatorException from(Throwable error) {
        if (error instanceof ContractValidatorException known) return known;
        Status status = error instanceof StatusRuntimeException runtime ? runtime.getStatus()
                : error instanceof StatusException checked ? checked.getStatus()
                : Status.fromThrowable(error);
        String description = status.getDescription();
        if (description == null || description.isEmpty()) {
            description = status.getCause() != null ? String.valueOf(status.getCause().getMessage()) : status.getCode().name();
        }
        return new ContractValidatorException(ErrorCode.of(status.getCode()), description, error);
    }

    static ContractValidatorException rejected(String operation, String message) {
        String details = message == null || message.isEmpty() ? operation + " was refused without a message" : message;
        return new ContractValidatorException(ErrorCode.REJECTED, details);
    }

    static ContractValidatorException invalidArgument(String details) {
        return new ContractValidatorException(ErrorCode.INVALID_ARGUMENT, details);
    }
}
