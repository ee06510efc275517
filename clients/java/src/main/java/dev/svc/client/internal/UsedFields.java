package dev.svc.client.internal;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The response fields a consumer saw, as dot paths: every object key at every level ({@code user},
 * {@code user.address}, {@code user.address.city}), with {@code []} marking array items
 * ({@code items[].id}, or {@code [].id} for a body that is itself an array). The walk is bounded in
 * depth and in the number of fields collected.
 */
public final class UsedFields {
    /** Deepest nesting walked; deeper fields are left out. */
    public static final int MAX_DEPTH = 32;
    /** Fields collected per endpoint; the rest are left out. */
    public static final int MAX_FIELDS_PER_ENDPOINT = 2_000;

    private UsedFields() {}

    /** Adds the fields of one response body (JSON text) to {@code fields}. */
    public static void collect(String body, Set<String> fields) {
        walk(Json.parseOrText(body), "", 0, fields);
    }

    private static void walk(Object value, String prefix, int depth, Set<String> fields) {
        if (depth >= MAX_DEPTH || fields.size() >= MAX_FIELDS_PER_ENDPOINT) return;
        if (value instanceof List<?> items) {
            for (Object item : items) walk(item, prefix + "[]", depth + 1, fields);
        } else if (value instanceof Map<?, ?> object) {
            for (Map.Entry<?, ?> entry : object.entrySet()) {
                if (fields.size() >= MAX_FIELDS_PER_ENDPOINT) return;
                String path = prefix.isEmpty() ? String.valueOf(entry.getKey()) : prefix + "." + entry.getKey();
                fields.add(path);
                walk(entry.getValue(), path, depth + 1, fields);
            }
        }
    }
}
