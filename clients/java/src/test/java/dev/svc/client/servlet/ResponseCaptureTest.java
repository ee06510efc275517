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
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The filter's copy of the response is what the client received: bodies written through the Writer are
 * held to maxBodyBytes by their UTF-8 size, what a servlet discards with resetBuffer() or reset()
 * leaves the copy too, and a response ended by sendError() (whose page the container writes) is not validated. A real Jetty 12 serves {@code GET /users/{id}} of users-v1.yaml.
 */
class ResponseCaptureTest {
    private static final String SCHEMA = "java-response-capture";
    private static final Duration FLUSH = Duration.ofSeconds(10);
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

    @Test
    void aLargeAsciiBodyWrittenThroughTheWriterIsValidatedUpToTheLimit() throws Exception {
        List<ContractViolation> violations = new CopyOnWriteArrayList<>();
        ContractValidationFilter filter = ContractValidationFilter.builder(validator, SCHEMA).onViolation(violations::add).build();
        try (ServletApp app = new ServletApp(filter, new UserServlet())) {
            // About 500 KB: under the default 1 MiB, though three bytes a character would be 1.5 MB.
            HttpResponse<String> response = get(app, "name=x&times=500000");
            assertEquals(200, response.statusCode());
            assertTrue(response.body().length() > 500_000);
            assertTrue(filter.flush(FLUSH));
            assertEquals(List.of(), violations);
            assertEquals(1, filter.stats().validated(), filter.stats().toString());
            assertEquals(0, filter.stats().skipped(), filter.stats().toString());
        } finally {
            filter.destroy();
        }
    }

    @Test
    void charactersCountAsTheirUtf8Bytes() throws Exception {
        // {"id":1,"name":"","email":"ada@example.com"} is 44 bytes; the limit is 64.
        ContractValidationFilter filter = ContractValidationFilter.builder(validator, SCHEMA).maxBodyBytes(64).build();
        try (ServletApp app = new ServletApp(filter, new UserServlet())) {
            for (String name : List.of("€€€€€€é", "😀😀😀😀😀", "Ada")) {
                assertEquals(200, get(app, named(name)).statusCode());
            }
            assertTrue(filter.flush(FLUSH));
            assertEquals(3, filter.stats().validated(), "64 bytes and fewer: " + filter.stats());
            assertEquals(0, filter.stats().violations());

            // 55 characters, but 66 bytes.
            assertEquals(200, get(app, named("😀😀😀😀😀é")).statusCode());
            assertTrue(filter.flush(FLUSH));
            assertEquals(3, filter.stats().validated(), filter.stats().toString());
            assertEquals(1, filter.stats().skipped(), "over the limit: " + filter.stats());
        } finally {
            filter.destroy();
        }
    }

    @Test
    void whatResetBufferDiscardsIsNotValidated() throws Exception {
        List<ContractViolation> violations = new CopyOnWriteArrayList<>();
        ContractValidationFilter filter = ContractValidationFilter.builder(validator, SCHEMA).onViolation(violations::add).build();
        try (ServletApp app = new ServletApp(filter, new UserServlet())) {
            HttpResponse<String> response = get(app, "reset=buffer");
            assertEquals(user(1, "Ada"), response.body());
            assertTrue(filter.flush(FLUSH));
            assertEquals(List.of(), violations);
            assertEquals(1, filter.stats().validated());
        } finally {
            filter.destroy();
        }
    }

    @Test
    void whatResetDiscardsIsNotValidatedAndTheResponseMayStartOver() throws Exception {
        List<ContractViolation> violations = new CopyOnWriteArrayList<>();
        ContractValidationFilter filter = ContractValidationFilter.builder(validator, SCHEMA).onViolation(violations::add).build();
        try (ServletApp app = new ServletApp(filter, new UserServlet())) {
            HttpResponse<String> response = get(app, "reset=all");
            assertEquals(200, response.statusCode());
            assertEquals(user(1, "Ada"), response.body());
            assertTrue(response.headers().firstValue("x-discarded").isEmpty());
            assertTrue(filter.flush(FLUSH));
            assertEquals(List.of(), violations, "validated as 200 with the user, as the client got it");
            assertEquals(1, filter.stats().validated());
        } finally {
            filter.destroy();
        }
    }

    @Test
    void aCommittedResponseKeepsItsCopyWhenResetBufferIsRefused() throws Exception {
        List<ContractViolation> violations = new CopyOnWriteArrayList<>();
        ContractValidationFilter filter = ContractValidationFilter.builder(validator, SCHEMA).onViolation(violations::add).build();
        try (ServletApp app = new ServletApp(filter, new UserServlet())) {
            HttpResponse<String> response = get(app, "reset=committed");
            assertEquals(user(1, "Ada"), response.body(), "resetBuffer() of a committed response is refused");
            assertTrue(filter.flush(FLUSH));
            assertEquals(List.of(), violations, "the copy still holds the part sent before the refused reset");
            assertEquals(1, filter.stats().validated());
        } finally {
            filter.destroy();
        }
    }

    @Test
    void aResponseEndedBySendErrorIsSkippedNotValidatedAsWhatWasWrittenBefore() throws Exception {
        List<ContractViolation> violations = new CopyOnWriteArrayList<>();
        ContractValidationFilter filter = ContractValidationFilter.builder(validator, SCHEMA).onViolation(violations::add).build();
        try (ServletApp app = new ServletApp(filter, new UserServlet())) {
            HttpResponse<String> response = get(app, "reset=error");
            assertEquals(404, response.statusCode());
            assertTrue(filter.flush(FLUSH));
            assertEquals(List.of(), violations, "the part written before sendError never reached the client");
            assertEquals(0, filter.stats().validated());
            assertEquals(1, filter.stats().skipped());
        } finally {
            filter.destroy();
        }
    }

    static String user(int id, String name) {
        return "{\"id\":" + id + ",\"name\":\"" + name + "\",\"email\":\"ada@example.com\"}";
    }

    /** GET /users/1 with this query, from the app (a Jetty 12 server with the filter in front of {@link UserServlet}). */
    private static HttpResponse<String> get(ServletApp app, String query) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(app.baseUrl() + "/users/1?" + query)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String named(String name) {
        return "name=" + URLEncoder.encode(name, StandardCharsets.UTF_8);
    }

    /**
     * {@code GET /users/{id}} written through the Writer: {@code ?name=} names the user ({@code &times=} repeats
     * the name); {@code ?reset=buffer}
     * first writes a part it discards with resetBuffer(); {@code ?reset=all} first sets a 500, a header and a
     * part, then reset() and the user through the output stream; {@code ?reset=committed} flushes the first half,
     * and the refused resetBuffer() changes nothing; {@code ?reset=error} writes a part, then sendError(404).
     */
    private static final class UserServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            int id = Integer.parseInt(request.getRequestURI().substring("/users/".length()));
            String name = request.getParameter("name") == null ? "Ada" : request.getParameter("name");
            String times = request.getParameter("times");
            String user = user(id, times == null ? name : name.repeat(Integer.parseInt(times)));
            response.setContentType("application/json;charset=utf-8");
            String reset = request.getParameter("reset");
            if (reset == null) {
                response.getWriter().write(user);
                return;
            }
            switch (reset) {
                case "error" -> {
                    response.getWriter().write("{\"partial\":");
                    response.sendError(404, "no such user");
                }
                case "buffer" -> {
                    response.getWriter().write("{\"partial\":");
                    response.resetBuffer();
                    response.getWriter().write(user);
                }
                case "all" -> {
                    response.setStatus(500);
                    response.setHeader("X-Discarded", "yes");
                    response.getWriter().write("{\"error\":");
                    response.reset();
                    response.setContentType("application/json;charset=utf-8");
                    response.getOutputStream().write(user.getBytes(StandardCharsets.UTF_8));
                }
                case "committed" -> {
                    int half = user.indexOf(",\"name\"");
                    response.getWriter().write(user, 0, half);
                    response.flushBuffer();
                    try {
                        response.resetBuffer();
                    } catch (IllegalStateException committed) {
                        response.getWriter().write(user.substring(half));
                    }
                }
                default -> throw new IllegalArgumentException(reset);
            }
        }
    }
}
