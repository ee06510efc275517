package dev.svc.client.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.client.ContractValidator;
import dev.svc.client.ValidationResult;
import dev.svc.client.support.Documents;
import dev.svc.client.support.SharedServer;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** ProducerTestKit from JUnit 5, as the README shows it. */
class ProducerTestKitTest {
    /** The provider's handler under test; user 13 is answered without its required email. */
    static final class UserHandler {
        String getUser(long id) {
            return id == 13 ? "{\"id\":13,\"name\":\"Nobody\"}" : "{\"id\":" + id + ",\"name\":\"Ada\",\"email\":\"ada@example.com\"}";
        }
    }

    private final UserHandler handler = new UserHandler();

    @BeforeAll
    static void registerSchema() {
        try (ContractValidator setup = ContractValidator.builder().address(SharedServer.address()).build()) {
            setup.registerSchemaWithVersion("users", Documents.document("users-v1.yaml"), "1.0.0");
        }
    }

    // readme:start provider-test
    @AutoClose
    static ProducerTestKit kit = ProducerTestKit.builder("users").serverAddress(SharedServer.address()).build();

    @Test
    void getUserFollowsTheContract() {
        kit.assertValidResponse("GET", "/users/42", 200, handler.getUser(42)); // fails listing the violations
    }
    // readme:end provider-test

    @Test
    void aViolationFailsTheAssertionWithTheViolationList() {
        AssertionError failure = assertThrows(AssertionError.class, () -> kit.assertValidResponse("GET", "/users/13", 200, handler.getUser(13)));
        assertTrue(failure.getMessage().contains("GET /users/13 -> 200 does not follow the contract of schema \"users\""), failure.getMessage());
        assertTrue(failure.getMessage().contains("\n  - response body: property \"email\" is required"), failure.getMessage());
    }

    @Test
    void validateResponseReturnsTheResult() {
        ValidationResult undefinedStatus = kit.validateResponse("GET", "/users/42", 418, "{}", Map.of("content-type", "application/json"));
        assertFalse(undefinedStatus.valid());
        assertEquals("users", kit.schemaId());
        assertTrue(kit.validateResponse("GET", "/health", 200, "{\"status\":\"ok\"}").valid());
    }
}
