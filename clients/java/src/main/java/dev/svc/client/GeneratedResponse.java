package dev.svc.client;

import dev.svc.client.internal.Json;
import java.util.Map;

/** A generated response; {@code body} is the JSON text exactly as generated (empty when there is none). */
public record GeneratedResponse(int statusCode, Map<String, String> headers, String body) {
    public GeneratedResponse {
        headers = Map.copyOf(headers);
    }

    /** The body parsed from its JSON text (maps, lists, strings, numbers, booleans); null when there is none. */
    public Object parsedBody() {
        return Json.parseOrText(body);
    }
}
