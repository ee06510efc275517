package dev.svc.client.internal;

import dev.svc.client.EndpointInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Maps a real request path ({@code /users/123}) to the path template of the schema it exercises
 * ({@code /users/{id}}). When several templates match, the one with static segments earliest wins, as
 * in the service's router: {@code /users/me} beats {@code /users/{id}} for the path {@code /users/me}.
 *
 * <p>Paths sent through a server URL prefix ({@code /v1/users/123} for a schema whose server is
 * {@code .../v1}) match too: leading segments are dropped one at a time, fewest first, until a template matches.
 */
public final class EndpointMatcher {
    /** Leading path segments tried as an unknown server prefix. */
    public static final int MAX_PREFIX_SEGMENTS = 4;

    private static final Pattern WHOLE_PARAMETER = Pattern.compile("^\\{[^{}]+\\}$");
    private static final Pattern PARAMETER = Pattern.compile("\\{[^{}]+\\}");

    /** Higher ranks are more specific. */
    private enum Rank { PARAMETER, MIXED, STATIC }

    private record Segment(Rank rank, String literal, Pattern pattern) {
        boolean matches(String value) {
            return switch (rank) {
                case STATIC -> value.equals(literal);
                case PARAMETER -> !value.isEmpty();
                case MIXED -> pattern.matcher(value).matches();
            };
        }
    }

    private record Template(EndpointInfo endpoint, List<Segment> segments) {}

    private final Map<String, List<Template>> byMethodAndLength = new HashMap<>();

    public EndpointMatcher(List<EndpointInfo> endpoints) {
        for (EndpointInfo endpoint : endpoints) {
            List<Segment> segments = splitPath(endpoint.path()).stream().map(EndpointMatcher::compile).toList();
            byMethodAndLength.computeIfAbsent(key(endpoint.method(), segments.size()), k -> new ArrayList<>())
                    .add(new Template(endpoint, segments));
        }
    }

    public Optional<EndpointInfo> match(String method, String realPath) {
        List<String> segments = splitPath(pathnameOf(realPath));
        int maxDropped = Math.min(MAX_PREFIX_SEGMENTS, Math.max(0, segments.size() - 1));
        for (int dropped = 0; dropped <= maxDropped; dropped++) {
            List<String> rest = segments.subList(dropped, segments.size());
            Template best = null;
            for (Template candidate : byMethodAndLength.getOrDefault(key(method, rest.size()), List.of())) {
                if (matchesAll(candidate, rest) && (best == null || compareSpecificity(candidate, best) > 0)) best = candidate;
            }
            if (best != null) return Optional.of(best.endpoint());
        }
        return Optional.empty();
    }

    /** The path without query string or fragment. */
    public static String pathnameOf(String path) {
        int end = path.length();
        int query = path.indexOf('?');
        int fragment = path.indexOf('#');
        if (query >= 0) end = query;
        if (fragment >= 0 && fragment < end) end = fragment;
        return path.substring(0, end);
    }

    private static boolean matchesAll(Template template, List<String> segments) {
        for (int i = 0; i < segments.size(); i++) {
            if (!template.segments().get(i).matches(segments.get(i))) return false;
        }
        return true;
    }

    /** Positive when {@code a} is more specific: the first segment where the ranks differ decides. */
    private static int compareSpecificity(Template a, Template b) {
        for (int i = 0; i < a.segments().size(); i++) {
            int difference = a.segments().get(i).rank().compareTo(b.segments().get(i).rank());
            if (difference != 0) return difference;
        }
        return 0;
    }

    private static Segment compile(String segment) {
        if (!segment.contains("{")) return new Segment(Rank.STATIC, segment, null);
        if (WHOLE_PARAMETER.matcher(segment).matches()) return new Segment(Rank.PARAMETER, null, null);
        // A segment mixing text and parameters, such as {name}.{extension} or v{major}.
        StringBuilder source = new StringBuilder();
        var matcher = PARAMETER.matcher(segment);
        int last = 0;
        while (matcher.find()) {
            source.append(Pattern.quote(segment.substring(last, matcher.start()))).append("[^/]+");
            last = matcher.end();
        }
        source.append(Pattern.quote(segment.substring(last)));
        return new Segment(Rank.MIXED, null, Pattern.compile(source.toString()));
    }

    /** {@code /users/42/} gives [users, 42]; the root path is no segments. */
    private static List<String> splitPath(String path) {
        String[] parts = path.split("/", -1);
        List<String> segments = new ArrayList<>(parts.length);
        for (int i = 0; i < parts.length; i++) {
            boolean edge = i == 0 || i == parts.length - 1;
            if (!(parts[i].isEmpty() && edge)) segments.add(parts[i]);
        }
        return segments;
    }

    private static String key(String method, int length) {
        return method.toUpperCase(Locale.ROOT) + " " + length;
    }
}
