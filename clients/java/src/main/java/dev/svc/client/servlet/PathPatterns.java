package dev.svc.client.servlet;

import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Path patterns of {@code includePaths} / {@code excludePaths}: {@code *} matches within one segment
 * ({@code /users/*}), {@code **} matches any number of segments, none included ({@code /api/**} matches
 * {@code /api} and {@code /api/a/b}). Everything else is literal. Patterns match the path without its
 * query string; a trailing slash is not significant.
 */
public final class PathPatterns {
    private PathPatterns() {}

    /** A predicate true when any of the patterns matches. */
    public static Predicate<String> compile(String option, List<String> patterns) {
        List<Pattern> compiled = new java.util.ArrayList<>();
        for (int i = 0; i < patterns.size(); i++) {
            String pattern = patterns.get(i);
            if (pattern == null || !pattern.startsWith("/")) {
                throw new IllegalArgumentException(option + "[" + i + "] must be a path pattern starting with \"/\" (got " + pattern + ")");
            }
            compiled.add(compile(pattern));
        }
        return path -> {
            for (Pattern p : compiled) if (p.matcher(path).matches()) return true;
            return false;
        };
    }

    static Pattern compile(String pattern) {
        StringBuilder source = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (pattern.startsWith("/**", i) && (i + 3 == pattern.length() || pattern.charAt(i + 3) == '/')) {
                source.append("(?:/.*)?"); // "/**": any number of segments, or none
                i += 2;
            } else if (c == '*') {
                source.append("[^/]*");
            } else {
                source.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(source + "/?");
    }
}
