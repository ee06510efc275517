package dev.svc.client;

import dev.svc.client.internal.Headers;
import dev.svc.client.internal.Json;
import java.util.Map;

/**
 * An HTTP response as validated: status, header names in lower case, the body as its encoded text.
 *
 * @param statusCode the HTTP status
 * @param headers header names (lower-cased here) to values; names that differ only in case are one header, their values joined with ", " in the map's order
 * @param body the body text; empty when there is none
 */
public record ValidationResponse(int statusCode, Map<String, String> headers, String body) {

    public ValidationResponse {
        headers = Headers.normalize(headers);
        body = body == null ? "" : body;
    }

    public static ValidationResponse of(int statusCode) {
        return new ValidationResponse(statusCode, Map.of(), "");
    }

    /** The same response with {@code name}'s value set to {@code value}, replacing the one it had under that name in any case. */
    public ValidationResponse withHeader(String name, String value) {
        return new ValidationResponse(statusCode, Headers.with(headers, name, value), body);
    }

    public ValidationResponse withBody(String text) {
        return new ValidationResponse(statusCode, headers, text);
    }

    /** The same response with {@code value} JSON-encoded as its body (and a JSON content type unless one is set). */
    public ValidationResponse withJsonBody(Object value) {
        ValidationResponse typed = headers.containsKey("content-type") ? this : withHeader("content-type", "application/json");
        return typed.withBody(Json.encode(value));
    }
}
