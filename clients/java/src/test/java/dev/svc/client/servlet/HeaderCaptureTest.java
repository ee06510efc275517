package dev.svc.client.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.client.ContractValidator;
import dev.svc.client.support.ServletApp;
import dev.svc.client.support.SharedServer;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What the filter sends of headers given more than once: a request header sent as {@code X-Trace: a} and
 * {@code x-trace: b} is {@code "x-trace": "a, b"}, and a response's two Set-Cookie and two Link lines are each
 * one value joined with ", ". The document's header schemas accept only the joined values, so a value dropped
 * is a violation naming what was sent. A real Jetty 12 serves it.
 */
class HeaderCaptureTest {
    private static final String SCHEMA = "java-header-capture";
    private static final Duration FLUSH = Duration.ofSeconds(10);
    private static final String DOCUMENT = """
            openapi: 3.0.3
            info: { title: Headers, version: 1.0.0 }
            paths:
              /trace:
                get:
                  parameters:
                    - { name: X-Trace, in: header, required: true, schema: { type: string, enum: ["a, b"] } }
                  responses:
                    '200':
                      description: ok
                      headers:
                        Set-Cookie: { required: true, schema: { type: string, enum: ["a=1; Path=/, b=2; Path=/"] } }
                        Link: { required: true, schema: { type: string, enum: ["</trace?page=2>; rel=next, </trace?page=1>; rel=prev"] } }
                      content:
                        application/json: { schema: { type: object } }
            """;
    private static ContractValidator validator;

    @BeforeAll
    static void registerSchema() {
        validator = SharedServer.validatorWithContent(SCHEMA, DOCUMENT);
    }

    @AfterAll
    static void closeValidator() {
        validator.close();
    }

    @Test
    void headersGivenMoreThanOnceAreSentWithEveryValueJoined() throws Exception {
        List<ContractViolation> violations = new CopyOnWriteArrayList<>();
        ContractValidationFilter filter = ContractValidationFilter.builder(validator, SCHEMA).onViolation(violations::add).build();
        try (ServletApp app = new ServletApp(filter, new TraceServlet())) {
            String head = rawGet(app, "X-Trace: a\r\nx-trace: b\r\n");
            assertTrue(head.startsWith("HTTP/1.1 200"), head);
            assertTrue(filter.flush(FLUSH));
            assertEquals(List.of(), violations);
            assertEquals(1, filter.stats().validated(), filter.stats().toString());
        } finally {
            filter.destroy();
        }
    }

    /** A GET /trace written by hand, so the header lines are sent exactly as given (names in two cases). */
    private static String rawGet(ServletApp app, String headerLines) throws IOException {
        URI base = URI.create(app.baseUrl());
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(10_000);
            String request = "GET /trace HTTP/1.1\r\nHost: " + base.getAuthority() + "\r\n" + headerLines + "Connection: close\r\n\r\n";
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    private static final class TraceServlet extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            response.addHeader("Set-Cookie", "a=1; Path=/");
            response.addHeader("Set-Cookie", "b=2; Path=/");
            response.addHeader("Link", "</trace?page=2>; rel=next");
            response.addHeader("Link", "</trace?page=1>; rel=prev");
            response.setContentType("application/json");
            response.getWriter().write("{}");
        }
    }
}
