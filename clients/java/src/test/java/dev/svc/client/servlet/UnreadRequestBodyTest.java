package dev.svc.client.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.client.ContractValidator;
import dev.svc.client.support.SharedServer;
import dev.svc.client.support.ServletApp;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A request body the servlet never reads (it answers without it) is validated as the client sent it: the
 * filter reads the body ahead in every mode and replays it, so shadow and warn mode report no "request
 * body is required" for a valid request, still check the request, and still check the response. (The
 * Node.js, Python and Go middleware record the body as the application reads it, and check the response
 * alone when nothing read it.) A real Jetty 12 serves {@code POST /users} of users-v1.yaml, whose request
 * body is required.
 */
class UnreadRequestBodyTest {
    private static final String SCHEMA = "java-unread-request-body";
    private static final Duration FLUSH = Duration.ofSeconds(10);
    private static final String NEW_USER = "{\"name\":\"Ada\",\"email\":\"ada@example.com\"}";
    private static final String NEW_USER_WITHOUT_EMAIL = "{\"name\":\"Ada\"}";
    private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static ContractValidator validator;

    @BeforeAll
    static void registerSchema() {
        validator = SharedServer.validatorWith(SCHEMA, "users-v1.yaml");
    }

    @AfterAll
    static void closeValidator() {
        validator.close();
    }

    @ParameterizedTest
    @EnumSource(value = ValidationMode.class, names = {"SHADOW", "WARN"})
    void aBodyTheServletNeverReadIsValidatedAsSent(ValidationMode mode) throws Exception {
        List<ContractViolation> violations = new CopyOnWriteArrayList<>();
        ContractValidationFilter filter = ContractValidationFilter.builder(validator, SCHEMA).mode(mode).onViolation(violations::add).build();
        try (ServletApp app = new ServletApp(filter, new CreateUserServlet())) {
            assertEquals(201, post(app, NEW_USER, "right").statusCode());
            assertTrue(filter.flush(FLUSH));
            assertEquals(List.of(), violations, "a valid request whose body the servlet never read");
            assertEquals(1, filter.stats().validated(), filter.stats().toString());
            assertEquals(0, filter.stats().skipped(), filter.stats().toString());

            // The response is still checked.
            assertEquals(201, post(app, NEW_USER, "wrong").statusCode());
            assertTrue(filter.flush(FLUSH));
            assertEquals(1, violations.size(), violations.toString());
            assertEquals(201, violations.get(0).statusCode());
            assertTrue(violations.get(0).errors().stream().anyMatch(e -> e.contains("/id")), violations.get(0).errors().toString());

            // And so is the request: its body is known, though the servlet never read it.
            assertEquals(201, post(app, NEW_USER_WITHOUT_EMAIL, "right").statusCode());
            assertTrue(filter.flush(FLUSH));
            assertEquals(2, violations.size(), violations.toString());
            assertTrue(violations.get(1).errors().stream().anyMatch(e -> e.contains("email")), violations.get(1).errors().toString());
            assertTrue(violations.stream().allMatch(v -> v.phase() == ViolationPhase.INTERACTION), violations.toString());
            assertEquals(3, filter.stats().validated(), filter.stats().toString());
            assertEquals(0, filter.stats().skipped(), filter.stats().toString());
        } finally {
            filter.destroy();
        }
    }

    /** POST /users with this body to the app, asking for the {@code right} or the {@code wrong} answer. */
    private static HttpResponse<String> post(ServletApp app, String body, String answer) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(app.baseUrl() + "/users"))
                .header("content-type", "application/json")
                .header("x-answer", answer)
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** {@code POST /users} answered 201 without reading the request body; {@code x-answer: wrong} gets an id that is a string. */
    private static final class CreateUserServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
            String id = "wrong".equals(request.getHeader("x-answer")) ? "\"seven\"" : "7";
            response.setStatus(201);
            response.setContentType("application/json");
            response.getWriter().write("{\"id\":" + id + ",\"name\":\"Ada\",\"email\":\"ada@example.com\"}");
        }
    }
}
