package dev.svc.client;

import dev.svc.client.internal.Headers;
import dev.svc.client.internal.Json;
import java.util.Map;
import java.util.Objects;

/**
 * An HTTP request as validated: the real path with actual values and an optional query string
 * ({@code /users/42?expand=posts}), header names in lower case, the body as its encoded text (JSON).
 *
 * @param method GET, POST, ... (any case; sent upper-case)
 * @param path   the real path, not the template
 * @param headers header names (lower-cased here) to values; names that differ only in case are one header, their values joined with ", " in the map's order
 * @param body   the body text; empty when there is none
 */
public record ValidationRequest(String method, String path, Map<String, String> headers, String body) {

    public ValidationRequest {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(path, "path");
        headers = Headers.normalize(headers);
        body = body == null ? "" : body;
    }

    public static ValidationRequest of(String method, String path) {
        return new ValidationRequest(method, path, Map.of(), "");
    }

    /** The same request with {@code name}'s value set to {@code value}, replacing the one it had under that name in any case. */
    public ValidationRequest withHeader(String name, String value) {
        return new ValidationRequest(method, path, Headers.with(headers, name, value), body);
    }

    /** The same request with this body text, sent as it is. */
    public ValidationRequest withBody(String text) {
        return new ValidationRequest(method, path, headers, text);
    }

    /** The same request with {@code value} JSON-encoded as its body (and a JSON content type unless one is set). */
    public ValidationRequest withJsonBody(Object value) {
        ValidationRequest typed = headers.containsKey("content-type") ? this : withHeader("content-type", "application/json");
        return typed.withBody(Json.encode(value));
    }
}
