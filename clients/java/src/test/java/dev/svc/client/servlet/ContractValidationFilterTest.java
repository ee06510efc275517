package dev.svc.client.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.client.ContractValidator;
import dev.svc.client.internal.Json;
import dev.svc.client.support.BlackHole;
import dev.svc.client.support.Ports;
import dev.svc.client.support.SharedServer;
import dev.svc.client.support.UsersApp;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The filter in each mode in a real Jetty 12 servlet container, with real HTTP requests. */
class ContractValidationFilterTest {
    private static final String SCHEMA = "java-filter";
    private static final String NEW_USER = "{\"name\":\"Ada\",\"email\":\"ada@example.com\"}";
    private static final String NEW_USER_WITHOUT_EMAIL = "{\"name\":\"Ada\"}";
    private static final Duration FLUSH = Duration.ofSeconds(10);

    private static ContractValidator validator;
    private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void registerSchema() {
        validator = SharedServer.validatorWith(SCHEMA, "users-v1.yaml");
    }

    @AfterAll
    static void closeValidator() {
        validator.close();
    }

    private static ContractValidationFilter.Builder filter(ContractValidator through, ValidationMode mode, Consumer<ContractViolation> onViolation) {
        return ContractValidationFilter.builder(through, SCHEMA).mode(mode).onViolation(onViolation);
    }

    @Test
    void strictRejectsAnInvalidRequestWith400BeforeTheServlet() throws Exception {
        List<ContractViolation> violations = new CopyOnWriteArrayList<>();
        ContractValidationFilter strict = filter(validator, ValidationMode.STRICT, violations::add).build();
        try (UsersApp app = new UsersApp(strict)) {
            HttpResponse<String> rejected = post(app, "/users", NEW_USER_WITHOUT_EMAIL);
            assertEquals(400, rejected.statusCode());
            assertTrue(rejected.headers().firstValue("content-type").orElse("").startsWith("application/json"));
            Map<?, ?> body = (Map<?, ?>) Json.parse(rejected.body());
            assertEquals("Bad Request", body.get("error"));
            assertFalse(((List<?>) body.get("errors")).isEmpty());
            assertEquals(0, app.handled(), "the servlet never ran");

            HttpResponse<String> created = post(app, "/users", NEW_USER);
            assertEquals(201, created.statusCode());
            assertTrue(created.body().contains("ada@example.com"), "the read-ahead body reached the servlet: " + created.body());

            assertTrue(strict.flush(FLUSH));
            assertEquals(1, violations.size());
            assertEquals(ViolationPhase.REQUEST, violations.get(0).phase());
            assertEquals(null, violations.get(0).statusCode());
            FilterStats stats = strict.stats();
            assertEquals(1, stats.rejected());
            assertEquals(0, stats.validatorErrors());
        } finally {
            strict.destroy();
        }
    }

    @Test
    void strictLogsAResponseViolationAndLetsTheResponseThrough() throws Exception {
        List<ContractViolation> violations = new CopyOnWriteArrayList<>();
        ContractValidationFilter strict = filter(validator, ValidationMode.STRICT, violations::add).build();
        try (UsersApp app = new UsersApp(strict)) {
            assertEquals(200, get(app, "/users/42").statusCode());
            HttpResponse<String> faulty = get(app, "/users/13");
            assertEquals(200, faulty.statusCode());
            assertEquals("{\"id\":13,\"name\":\"Nobody\"}", faulty.body());
            assertTrue(strict.flush(FLUSH));
            assertEquals(1, violations.size(), violations.toString());
            ContractViolation violation = violations.get(0);
            assertEquals(ViolationPhase.RESPONSE, violation.phase());
            assertEquals(200, violation.statusCode());
            assertEquals("/users/13", violation.path());
            assertTrue(violation.errors().stream().anyMatch(e -> e.contains("email")), violation.errors().toString());
            assertEquals("1.0.0", violation.validatedAgainstVersion());
        } finally {
            strict.destroy();
        }
    }

    @Test
    void warnLetsViolationsThroughAndReportsThemAfterwards() throws Exception {
        List<ContractViolation> violations = new CopyOnWriteArrayList<>();
        ContractValidationFilter warn = filter(validator, ValidationMode.WARN, violations::add).build();
        try (UsersApp app = new UsersApp(warn)) {
            assertEquals(201, post(app, "/users?source=test", NEW_USER_WITHOUT_EMAIL).statusCode(), "warn never rejects");
            assertEquals(200, get(app, "/users/13").statusCode());
            assertEquals(200, get(app, "/users/42").statusCode());
            assertTrue(warn.flush(FLUSH));
            assertEquals(2, violations.size(), violations.toString());
            assertTrue(violations.stream().allMatch(v -> v.phase() == ViolationPhase.INTERACTION && v.mode() == ValidationMode.WARN));
            assertTrue(violations.stream().anyMatch(v -> v.path().equals("/users?source=test") && v.statusCode() == 201));
            FilterStats stats = warn.stats();
            assertEquals(3, stats.validated());
            assertEquals(2, stats.violations());
            assertEquals(0, stats.rejected());
            assertEquals(0, stats.pending());
        } finally {
            warn.destroy();
        }
    }

    @Test
    void anAsyncResponseIsValidatedOnceComplete() throws Exception {
        List<ContractViolation> violations = new CopyOnWriteArrayList<>();
        ContractValidationFilter warn = filter(validator, ValidationMode.WARN, violations::add).build();
        try (UsersApp app = new UsersApp(warn)) {
            HttpResponse<String> response = get(app, "/users/13?async=true");
            assertEquals("{\"id\":13,\"name\":\"Nobody\"}", response.body());
            // The validation is queued when the async context completes, which may be just after the client has the response.
            long deadline = System.nanoTime() + FLUSH.toNanos();
            while (violations.isEmpty() && System.nanoTime() < deadline) Thread.sleep(5);
            assertTrue(warn.flush(FLUSH));
            assertEquals(1, violations.size(), violations.toString());
            assertTrue(violations.get(0).errors().stream().anyMatch(e -> e.contains("email")), violations.toString());
        } finally {
            warn.destroy();
        }
    }

    @Test
    void shadowIsSilentButCountsAndCallsBack() throws Exception {
        List<ContractViolation> violations = new CopyOnWriteArrayList<>();
        ContractValidationFilter shadow = filter(validator, ValidationMode.SHADOW, violations::add).build();
        try (UsersApp app = new UsersApp(shadow)) {
            assertEquals(201, post(app, "/users", NEW_USER_WITHOUT_EMAIL).statusCode());
            assertEquals(200, get(app, "/users/13").statusCode());
            assertTrue(shadow.flush(FLUSH));
            assertEquals(2, violations.size());
            assertTrue(violations.stream().allMatch(v -> v.mode() == ValidationMode.SHADOW));
            assertEquals(2, shadow.stats().violations());
        } finally {
            shadow.destroy();
        }
    }

    @Test
    void warnLogsViolationsAndShadowStaysSilent() throws Exception {
        Logger logger = Logger.getLogger(ContractValidationFilter.class.getName());
        List<LogRecord> records = new CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        logger.addHandler(handler);
        try {
            for (ValidationMode mode : List.of(ValidationMode.WARN, ValidationMode.SHADOW)) {
                records.clear();
                ContractValidationFilter filter = filter(validator, mode, v -> { }).build();
                try (UsersApp app = new UsersApp(filter)) {
                    get(app, "/users/13");
                    assertTrue(filter.flush(FLUSH));
                    assertEquals(1, filter.stats().violations());
                } finally {
                    filter.destroy();
                }
                if (mode == ValidationMode.WARN) {
                    assertEquals(1, records.size());
                    assertEquals(java.util.logging.Level.WARNING, records.get(0).getLevel());
                    assertTrue(records.get(0).getMessage().contains("GET /users/13 -> 200"), records.get(0).getMessage());
                } else {
                    assertEquals(List.of(), records, "shadow is silent");
                }
            }
        } finally {
            logger.removeHandler(handler);
        }
    }

    @Test
    void includeExcludeAndSampling() throws Exception {
        List<ContractViolation> violations = new CopyOnWriteArrayList<>();
        ContractValidationFilter filtered = filter(validator, ValidationMode.WARN, violations::add)
                .includePaths("/users/**").excludePaths("/users/13").build();
        try (UsersApp app = new UsersApp(filtered)) {
            get(app, "/users/13");
            get(app, "/health");
            get(app, "/users/42");
            get(app, "/users");
            assertTrue(filtered.flush(FLUSH));
            FilterStats stats = filtered.stats();
            assertEquals(2, stats.validated(), "/users/42 and /users (\"/**\" matches no segment too)");
            assertEquals(2, stats.skipped());
            assertEquals(List.of(), violations);
        } finally {
            filtered.destroy();
        }

        ContractValidationFilter sampled = filter(validator, ValidationMode.WARN, violations::add).sampleRate(0).build();
        try (UsersApp app = new UsersApp(sampled)) {
            for (int i = 0; i < 5; i++) get(app, "/users/13");
            assertTrue(sampled.flush(FLUSH));
            assertEquals(5, sampled.stats().skipped());
            assertEquals(0, sampled.stats().validated());
        } finally {
            sampled.destroy();
        }
    }

    @Test
    void aCallbackThatThrowsDoesNotBreakTheApp() throws Exception {
        ContractValidationFilter strict = filter(validator, ValidationMode.STRICT, v -> {
            throw new IllegalStateException("callback failure");
        }).build();
        try (UsersApp app = new UsersApp(strict)) {
            assertEquals(400, post(app, "/users", NEW_USER_WITHOUT_EMAIL).statusCode());
            assertEquals(200, get(app, "/users/13").statusCode());
            assertTrue(strict.flush(FLUSH));
            assertEquals(2, strict.stats().violations());
        } finally {
            strict.destroy();
        }
    }

    @Test
    void aValidatorThatIsDownNeverBreaksTheApp() throws Exception {
        try (ContractValidator down = ContractValidator.builder().address("127.0.0.1:" + Ports.closedPort()).build()) {
            for (ValidationMode mode : ValidationMode.values()) {
                ContractValidationFilter filter = filter(down, mode, v -> { }).build();
                try (UsersApp app = new UsersApp(filter)) {
                    assertEquals(201, post(app, "/users", NEW_USER_WITHOUT_EMAIL).statusCode(), mode + ": fail open");
                    assertEquals(200, get(app, "/users/42").statusCode(), mode.toString());
                    assertTrue(filter.flush(FLUSH));
                    FilterStats stats = filter.stats();
                    assertTrue(stats.validatorErrors() >= 2, mode + ": " + stats);
                    assertEquals(0, stats.violations());
                } finally {
                    filter.destroy();
                }
            }
        }
    }

    @Test
    void aSlowValidatorDelaysNeitherWarnNorShadowAndStrictFailsOpenAtItsDeadline() throws Exception {
        try (BlackHole hole = new BlackHole(); ContractValidator slow = ContractValidator.builder().address(hole.address()).build()) {
            for (ValidationMode mode : List.of(ValidationMode.WARN, ValidationMode.SHADOW)) {
                ContractValidationFilter filter = filter(slow, mode, v -> { }).validationDeadline(Duration.ofSeconds(3)).build();
                try (UsersApp app = new UsersApp(filter)) {
                    long start = System.nanoTime();
                    for (int i = 0; i < 5; i++) assertEquals(200, get(app, "/users/42").statusCode());
                    long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                    assertTrue(elapsedMs < 2_000, mode + ": 5 requests took " + elapsedMs + " ms behind a validator that never answers");
                } finally {
                    filter.destroy();
                }
            }
            ContractValidationFilter strict = filter(slow, ValidationMode.STRICT, v -> { })
                    .requestCheckDeadline(Duration.ofMillis(300)).validationDeadline(Duration.ofMillis(300)).build();
            try (UsersApp app = new UsersApp(strict)) {
                long start = System.nanoTime();
                assertEquals(201, post(app, "/users", NEW_USER_WITHOUT_EMAIL).statusCode());
                long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                assertTrue(elapsedMs >= 250 && elapsedMs < 3_000, "strict waited " + elapsedMs + " ms for its 300 ms check");
                assertTrue(strict.flush(FLUSH));
                assertTrue(strict.stats().validatorErrors() >= 1);
            } finally {
                strict.destroy();
            }
        }
    }

    @Test
    void aFullQueueDropsAndCounts() throws Exception {
        try (BlackHole hole = new BlackHole(); ContractValidator slow = ContractValidator.builder().address(hole.address()).build()) {
            ContractValidationFilter filter = filter(slow, ValidationMode.WARN, v -> { })
                    .maxPendingValidations(2).maxBatch(1).validationDeadline(Duration.ofSeconds(1)).build();
            try (UsersApp app = new UsersApp(filter)) {
                for (int i = 0; i < 12; i++) assertEquals(200, get(app, "/users/42").statusCode());
                FilterStats stats = filter.stats();
                assertTrue(stats.dropped() >= 8, stats.toString());
                assertTrue(stats.pending() <= 2, "never more than maxPendingValidations: " + stats);
            } finally {
                filter.destroy();
            }
        }
    }

    @Test
    void destroyCountsTheExchangesStillQueuedAsDropped() throws Exception {
        try (BlackHole hole = new BlackHole(); ContractValidator slow = ContractValidator.builder().address(hole.address()).build()) {
            ContractValidationFilter filter = filter(slow, ValidationMode.WARN, v -> { })
                    .maxPendingValidations(2).maxBatch(1).validationDeadline(Duration.ofSeconds(3)).build();
            try (UsersApp app = new UsersApp(filter)) {
                // One in flight (the validator never answers), one queued, two dropped at the door.
                for (int i = 0; i < 4; i++) assertEquals(200, get(app, "/users/42").statusCode());
                assertEquals(2, filter.stats().dropped(), filter.stats().toString());
            } finally {
                filter.destroy();
            }
            // The queued one was left unvalidated: before, destroy() cleared it without a count.
            assertEquals(3, filter.stats().dropped(), filter.stats().toString());
        }
    }

    @Test
    void streamedResponsesStillStream() throws Exception {
        List<ContractViolation> violations = new CopyOnWriteArrayList<>();
        ContractValidationFilter warn = filter(validator, ValidationMode.WARN, violations::add).build();
        try (UsersApp app = new UsersApp(warn)) {
            HttpResponse<InputStream> response = http.send(HttpRequest.newBuilder(URI.create(app.baseUrl() + "/users?stream=true")).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream body = response.body()) {
                // The first chunk arrives while the servlet still holds the second one back.
                byte[] first = CompletableFuture.supplyAsync(() -> readUntil(body, ',')).get(5, TimeUnit.SECONDS);
                assertEquals("[" + UsersApp.USER_JSON + ",", new String(first, StandardCharsets.UTF_8));
                app.releaseStream();
                assertEquals(UsersApp.USER_JSON + "]", new String(body.readAllBytes(), StandardCharsets.UTF_8));
            }
            assertTrue(warn.flush(FLUSH));
            assertEquals(1, warn.stats().validated());
            assertEquals(List.of(), violations, "the captured copy is the whole streamed body");
        } finally {
            warn.destroy();
        }
    }

    @Test
    void optionsAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> ContractValidationFilter.builder(validator, "").build());
        assertThrows(IllegalArgumentException.class, () -> ContractValidationFilter.builder(validator, SCHEMA).sampleRate(1.5));
        assertThrows(IllegalArgumentException.class, () -> ContractValidationFilter.builder(validator, SCHEMA).includePaths("users"));
        assertThrows(IllegalArgumentException.class, () -> ContractValidationFilter.builder(validator, SCHEMA).maxPendingValidations(0));
    }

    private static byte[] readUntil(InputStream in, char last) {
        try {
            java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            for (int b; (b = in.read()) != -1; ) {
                out.write(b);
                if (b == last && out.size() > 1 && out.toString(StandardCharsets.UTF_8).endsWith("}" + last)) break;
            }
            return out.toByteArray();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static HttpResponse<String> get(UsersApp app, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(app.baseUrl() + path)).header("accept", "application/json").build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> post(UsersApp app, String path, String json) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(app.baseUrl() + path)).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
