package dev.svc.client;

import java.util.List;

/**
 * An endpoint a consumer uses.
 *
 * @param path API path template
 * @param usedFields response fields the consumer reads, as dot paths with {@code []} for array items ({@code items[].id})
 */
public record EndpointUsage(String method, String path, List<String> usedFields) {
    public EndpointUsage {
        usedFields = List.copyOf(usedFields);
    }
}
