package dev.svc.client.conformance;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The conformance suite's matching rules (clients/conformance/README.md, "Expectations"): an actual
 * canonical value against an expectation; the answer is empty on a match, else where and why it failed.
 */
final class Expectation {
    private Expectation() {}

    static Optional<String> mismatch(Object expected, Object actual) {
        return mismatch(expected, actual, "$");
    }

    private static Optional<String> mismatch(Object expected, Object actual, String at) {
        if (expected instanceof Map<?, ?> pattern && pattern.keySet().stream().anyMatch(k -> String.valueOf(k).startsWith("$"))) {
            return operator(pattern, actual, at);
        }
        if (expected instanceof Map<?, ?> object) {
            if (!(actual instanceof Map<?, ?> value)) return fail(at, "an object", actual);
            for (Map.Entry<?, ?> entry : object.entrySet()) {
                String key = String.valueOf(entry.getKey());
                Object child = entry.getValue();
                if (child instanceof Map<?, ?> op && op.containsKey("$absentOrEmpty")) {
                    if (value.containsKey(key) && !isEmpty(value.get(key))) return fail(at + "." + key, "absent or empty", value.get(key));
                    continue;
                }
                if (!value.containsKey(key)) return Optional.of(at + "." + key + ": missing");
                Optional<String> inner = mismatch(child, value.get(key), at + "." + key);
                if (inner.isPresent()) return inner;
            }
            return Optional.empty();
        }
        if (expected instanceof List<?> items) {
            if (!(actual instanceof List<?> values) || values.size() != items.size()) return fail(at, "an array of " + items.size(), actual);
            for (int i = 0; i < items.size(); i++) {
                Optional<String> inner = mismatch(items.get(i), values.get(i), at + "[" + i + "]");
                if (inner.isPresent()) return inner;
            }
            return Optional.empty();
        }
        return scalarEquals(expected, actual) ? Optional.empty() : fail(at, String.valueOf(expected), actual);
    }

    private static Optional<String> operator(Map<?, ?> pattern, Object actual, String at) {
        if (pattern.containsKey("$len")) {
            long length = ((Number) pattern.get("$len")).longValue();
            return actual instanceof List<?> list && list.size() == length ? Optional.empty() : fail(at, "an array of length " + length, actual);
        }
        if (pattern.containsKey("$contains")) {
            if (!(actual instanceof List<?> list)) return fail(at, "an array", actual);
            for (Object wanted : (List<?>) pattern.get("$contains")) {
                if (list.stream().noneMatch(element -> mismatch(wanted, element, at).isEmpty())) return fail(at, "an element matching " + wanted, actual);
            }
            return Optional.empty();
        }
        if (pattern.containsKey("$match")) {
            String regex = String.valueOf(pattern.get("$match"));
            return actual instanceof String text && Pattern.compile(regex).matcher(text).find() ? Optional.empty() : fail(at, "a string matching /" + regex + "/", actual);
        }
        if (pattern.containsKey("$nonEmpty")) {
            boolean nonEmpty = actual instanceof String s ? !s.isEmpty()
                    : actual instanceof List<?> l ? !l.isEmpty()
                    : actual instanceof Map<?, ?> m && !m.isEmpty();
            return nonEmpty ? Optional.empty() : fail(at, "a non-empty value", actual);
        }
        if (pattern.containsKey("$absentOrEmpty")) {
            return isEmpty(actual) ? Optional.empty() : fail(at, "absent or empty", actual);
        }
        return Optional.of(at + ": unknown matcher " + pattern.keySet());
    }

    static boolean isEmpty(Object value) {
        return value == null
                || (value instanceof String s && s.isEmpty())
                || (value instanceof Number n && n.doubleValue() == 0)
                || Boolean.FALSE.equals(value)
                || (value instanceof List<?> l && l.isEmpty())
                || (value instanceof Map<?, ?> m && m.isEmpty());
    }

    private static boolean scalarEquals(Object expected, Object actual) {
        if (expected instanceof Number a && actual instanceof Number b) return a.doubleValue() == b.doubleValue();
        return expected == null ? actual == null : expected.equals(actual);
    }

    private static Optional<String> fail(String at, String wanted, Object actual) {
        return Optional.of(at + ": expected " + wanted + ", got " + dev.svc.client.internal.Json.encode(actual));
    }
}
