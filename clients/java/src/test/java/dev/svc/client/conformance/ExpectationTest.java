package dev.svc.client.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.svc.client.internal.Json;
import java.io.IOException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The suite's matching rules, so that a runner that accepts anything cannot pass for conformance. */
class ExpectationTest {

    @ParameterizedTest(name = "{0} against {1}: {2}")
    @CsvSource(delimiter = '|', value = {
            "1 | 1.0 | true",
            "1 | 2 | false",
            "\"a\" | \"a\" | true",
            "null | null | true",
            "null | 0 | false",
            "{\"a\": 1} | {\"a\": 1, \"b\": 2} | true",
            "{\"a\": 1} | {\"b\": 1} | false",
            "[1, 2] | [1, 2] | true",
            "[1, 2] | [1, 2, 3] | false",
            "[1, 2] | [2, 1] | false",
            "{\"$len\": 2} | [5, 6] | true",
            "{\"$len\": 2} | [5] | false",
            "{\"$contains\": [{\"id\": 2}]} | [{\"id\": 1}, {\"id\": 2}] | true",
            "{\"$contains\": [{\"id\": 3}]} | [{\"id\": 1}, {\"id\": 2}] | false",
            "{\"$match\": \"^[0-9a-f]{4}$\"} | \"beef\" | true",
            "{\"$match\": \"^[0-9a-f]{4}$\"} | \"beefy\" | false",
            "{\"$nonEmpty\": true} | \"x\" | true",
            "{\"$nonEmpty\": true} | [] | false",
            "{\"errors\": {\"$absentOrEmpty\": true}} | {} | true",
            "{\"errors\": {\"$absentOrEmpty\": true}} | {\"errors\": []} | true",
            "{\"errors\": {\"$absentOrEmpty\": true}} | {\"errors\": [\"x\"]} | false",
            "{\"a\": {\"b\": [true]}} | {\"a\": {\"b\": [false]}} | false",
    })
    void matches(String expected, String actual, boolean matches) throws IOException {
        assertEquals(matches, Expectation.mismatch(Json.parse(expected), Json.parse(actual)).isEmpty());
    }
}
