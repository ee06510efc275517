package dev.svc.client;

import java.time.Duration;

/**
 * Per-call options: the schema (default the one the client is bound to), its version (default the
 * bound version for the bound schema, else the latest) and the deadline (default the client's).
 * Any of them may be null.
 */
public record RequestOptions(String schemaId, String schemaVersion, Duration deadline) {
    public static final RequestOptions DEFAULTS = new RequestOptions(null, null, null);

    public RequestOptions {
        if (deadline != null && (deadline.isNegative() || deadline.isZero())) {
            throw new IllegalArgumentException("deadline must be positive (got " + deadline + ")");
        }
    }

    public static RequestOptions schema(String schemaId) {
        return new RequestOptions(schemaId, null, null);
    }

    public static RequestOptions schema(String schemaId, String schemaVersion) {
        return new RequestOptions(schemaId, schemaVersion, null);
    }

    public RequestOptions withDeadline(Duration value) {
        return new RequestOptions(schemaId, schemaVersion, value);
    }
}
