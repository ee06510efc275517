package dev.svc.client.support;

import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real Jetty 12 (ee10 servlet) server on a free loopback port ({@link ServletApp}) serving a small implementation of
 * the conformance suite's {@code users-v1.yaml}, optionally behind a filter. Two deliberate faults:
 * user 13 is answered without its required {@code email} (asynchronously with {@code ?async=true}); {@code /users?stream=true} streams the list in
 * chunks, holding the last one until {@link #releaseStream()}.
 */
public final class UsersApp implements AutoCloseable {
    public static final String USER_JSON = "{\"id\":42,\"name\":\"Ada\",\"email\":\"ada@example.com\"}";

    private final AtomicInteger handled = new AtomicInteger();
    private volatile CountDownLatch streamGate = new CountDownLatch(1);
    private final ServletApp app;

    public UsersApp(Filter filter) throws Exception {
        app = new ServletApp(filter, new UsersServlet());
    }

    public String baseUrl() {
        return app.baseUrl();
    }

    /** Requests the servlet itself answered (not those a filter answered first). */
    public int handled() {
        return handled.get();
    }

    public void releaseStream() {
        streamGate.countDown();
    }

    @Override
    public void close() {
        releaseStream();
        app.close();
    }

    private final class UsersServlet extends HttpServlet {
        private static final long serialVersionUID = 1L;

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            handled.incrementAndGet();
            String path = request.getRequestURI();
            if (path.equals("/health")) {
                json(response, 200, "{\"status\":\"ok\"}");
            } else if (path.equals("/users") && "stream=true".equals(request.getQueryString())) {
                stream(response);
            } else if (path.equals("/users")) {
                json(response, 200, "[" + USER_JSON + "]");
            } else if (path.equals("/users/13") && "async=true".equals(request.getQueryString())) {
                // Answered later from another thread, after the filter chain has returned.
                var async = request.startAsync();
                async.start(() -> {
                    try {
                        json((HttpServletResponse) async.getResponse(), 200, "{\"id\":13,\"name\":\"Nobody\"}");
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    } finally {
                        async.complete();
                    }
                });
            } else if (path.equals("/users/13")) {
                json(response, 200, "{\"id\":13,\"name\":\"Nobody\"}");
            } else if (path.matches("/users/[^/]+")) {
                json(response, 200, USER_JSON.replace("42", path.substring("/users/".length())));
            } else {
                json(response, 404, "{\"error\":\"not found\"}");
            }
        }

        @Override
        protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
            handled.incrementAndGet();
            String body = new String(request.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!request.getRequestURI().equals("/users")) {
                json(response, 404, "{\"error\":\"not found\"}");
                return;
            }
            // Echo what was sent as the created user, so tests see that the body reached the servlet.
            String created = body.isBlank() ? "{}" : body.trim();
            json(response, 201, "{\"id\":7," + created.substring(1));
        }

        private void json(HttpServletResponse response, int status, String body) throws IOException {
            response.setStatus(status);
            response.setContentType("application/json");
            PrintWriter writer = response.getWriter();
            writer.write(body);
        }

        /** Streams a JSON array in two flushed chunks; the second waits for the test. */
        private void stream(HttpServletResponse response) throws IOException {
            response.setStatus(200);
            response.setContentType("application/json");
            var out = response.getOutputStream();
            out.write(("[" + USER_JSON + ",").getBytes(StandardCharsets.UTF_8));
            out.flush();
            try {
                streamGate.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            out.write((USER_JSON + "]").getBytes(StandardCharsets.UTF_8));
        }
    }
}
