package dev.svc.client.internal;

import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Header maps as the service takes them: lower-case names, multi-valued headers joined with ", " (RFC 9110). */
public final class Headers {
    private Headers() {}

    public static Map<String, String> normalize(Map<String, String> headers) {
        if (headers == null || headers.isEmpty()) return Map.of();
        Map<String, String> result = new TreeMap<>();
        headers.forEach((name, value) -> {
            if (name != null && value != null) result.put(name.toLowerCase(Locale.ROOT), value);
        });
        return Map.copyOf(result);
    }

    public static Map<String, String> fromMultiValued(Map<String, ? extends Collection<String>> headers) {
        Map<String, String> result = new TreeMap<>();
        headers.forEach((name, values) -> {
            // HTTP/2 pseudo-headers (":status") are not message headers.
            if (name == null || name.startsWith(":") || values == null || values.isEmpty()) return;
            result.merge(name.toLowerCase(Locale.ROOT), String.join(", ", values), (a, b) -> a + ", " + b);
        });
        return Map.copyOf(result);
    }
}
