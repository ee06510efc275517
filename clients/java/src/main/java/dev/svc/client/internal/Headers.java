package dev.svc.client.internal;

import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Header maps as the service takes them: lower-case names, multi-valued headers joined with ", " (RFC 9110),
 * Set-Cookie included (the map holds one string a name).
 */
public final class Headers {
    private Headers() {}

    /**
     * Names that differ only in case are one header: their values are joined with ", " in the map's
     * iteration order (a {@code LinkedHashMap} keeps the order they were put in), none dropped.
     */
    public static Map<String, String> normalize(Map<String, String> headers) {
        if (headers == null || headers.isEmpty()) return Map.of();
        Map<String, String> result = new TreeMap<>();
        headers.forEach((name, value) -> {
            if (name != null && value != null) result.merge(name.toLowerCase(Locale.ROOT), value, Headers::join);
        });
        return Map.copyOf(result);
    }

    /** {@code headers} (already normalized) with {@code name}'s value replaced, whatever the case it is given in. */
    public static Map<String, String> with(Map<String, String> headers, String name, String value) {
        Map<String, String> copy = new TreeMap<>(headers);
        if (name != null) copy.put(name.toLowerCase(Locale.ROOT), value); // a null value: the header is left out
        return copy;
    }

    public static Map<String, String> fromMultiValued(Map<String, ? extends Collection<String>> headers) {
        Map<String, String> result = new TreeMap<>();
        headers.forEach((name, values) -> {
            // HTTP/2 pseudo-headers (":status") are not message headers.
            if (name == null || name.startsWith(":") || values == null || values.isEmpty()) return;
            result.merge(name.toLowerCase(Locale.ROOT), String.join(", ", values), Headers::join);
        });
        return Map.copyOf(result);
    }

    private static String join(String first, String second) {
        return first + ", " + second;
    }
}
