package dev.svc.client.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PathPatternsTest {

    @ParameterizedTest(name = "{0} against {1}: {2}")
    @CsvSource({
            "/api/**, /api, true",
            "/api/**, /api/, true",
            "/api/**, /api/users/42/posts, true",
            "/api/**, /apis, false",
            "/users/*, /users/42, true",
            "/users/*, /users/42/posts, false",
            "/users/*/posts, /users/42/posts, true",
            "/**/health, /a/b/health, true",
            "/**/health, /health, true",
            "/files/*.json, /files/a.json, true",
            "/files/*.json, /files/ajson, false",
            "/health, /health/, true",
            "/health, /healthz, false",
    })
    void matches(String pattern, String path, boolean expected) {
        assertEquals(expected, PathPatterns.compile("patterns", List.of(pattern)).test(path));
    }

    @ParameterizedTest
    @CsvSource({"users", "''"})
    void aPatternMustStartWithASlash(String pattern) {
        assertThrows(IllegalArgumentException.class, () -> PathPatterns.compile("includePaths", List.of(pattern)));
    }
}
