package dev.svc.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.svc.client.internal.Headers;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The header map sent to the service: lower-case names, and the values of a header given more than once
 * (repeated, or under names that differ only in case) joined with ", ", Set-Cookie and Link included, none
 * dropped, as the Go, Node.js and Python clients send them. withHeader replaces a header whatever the case
 * it is named in.
 */
class HeaderMapTest {

    @Test
    void namesThatDifferOnlyInCaseAreOneHeaderWithEveryValue() {
        Map<String, String> given = new LinkedHashMap<>();
        given.put("X-Trace", "a");
        given.put("x-trace", "b");
        given.put("Accept", "application/json");
        ValidationRequest request = new ValidationRequest("GET", "/users/42", given, "");
        assertEquals(Map.of("x-trace", "a, b", "accept", "application/json"), request.headers());
    }

    @Test
    void repeatedSetCookieAndLinkAreJoined() {
        Map<String, String> given = new LinkedHashMap<>();
        given.put("Set-Cookie", "a=1; Path=/");
        given.put("set-cookie", "b=2; Path=/");
        given.put("Link", "</users?page=2>; rel=next");
        given.put("LINK", "</users?page=1>; rel=prev");
        ValidationResponse response = new ValidationResponse(200, given, "{}");
        assertEquals(Map.of("set-cookie", "a=1; Path=/, b=2; Path=/", "link", "</users?page=2>; rel=next, </users?page=1>; rel=prev"),
                response.headers());

        // As the capture adapters (HttpClient, OkHttp) hand them over: lists of values, names in any case.
        Map<String, List<String>> multi = new LinkedHashMap<>();
        multi.put("Set-Cookie", List.of("a=1; Path=/", "b=2; Path=/"));
        multi.put("link", List.of("</users?page=2>; rel=next"));
        multi.put("Link", List.of("</users?page=1>; rel=prev"));
        assertEquals(Map.of("set-cookie", "a=1; Path=/, b=2; Path=/", "link", "</users?page=2>; rel=next, </users?page=1>; rel=prev"),
                Headers.fromMultiValued(multi));
    }

    @Test
    void withHeaderReplacesTheHeaderInAnyCase() {
        ValidationRequest request = ValidationRequest.of("GET", "/users/42").withHeader("content-type", "text/plain");
        for (String name : List.of("Content-Type", "CONTENT-TYPE", "content-type")) {
            assertEquals(Map.of("content-type", "application/json"), request.withHeader(name, "application/json").headers(), name);
        }
        ValidationResponse response = ValidationResponse.of(200).withHeader("X-Rate", "1").withHeader("x-rate", "2").withHeader("X-RATE", "3");
        assertEquals(Map.of("x-rate", "3"), response.headers());
        assertEquals(Map.of(), response.withHeader("X-Rate", null).headers());
    }
}
