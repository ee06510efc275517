package dev.svc.client.capture;

import static dev.svc.client.support.Documents.document;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.client.AutoRegisterConfig;
import dev.svc.client.CapturedInteraction;
import dev.svc.client.ConsumerRegistration;
import dev.svc.client.ContractValidator;
import dev.svc.client.ContractValidatorException;
import dev.svc.client.EndpointUsage;
import dev.svc.client.ErrorCode;
import dev.svc.client.RequestOptions;
import dev.svc.client.ValidationResult;
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
import java.util.concurrent.CopyOnWriteArrayList;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Both capture adapters against a real Jetty server, validated by a real svc server. */
class CaptureTest {
    private static final String SCHEMA = "java-capture";
    private static ContractValidator validator;
    private static UsersApp app;

    @BeforeAll
    static void start() throws Exception {
        validator = ContractValidator.builder().address(SharedServer.address()).build();
        validator.registerSchemaWithVersion(SCHEMA, document("users-v1.yaml"), "1.0.0");
        app = new UsersApp(null);
    }

    @AfterAll
    static void stop() throws Exception {
        app.close();
        validator.close();
    }

    private static List<EndpointUsage> expectedUsage() {
        return List.of(
                new EndpointUsage("GET", "/users", List.of("[].email", "[].id", "[].name")),
                new EndpointUsage("POST", "/users", List.of("email", "id", "name")),
                new EndpointUsage("GET", "/users/{id}", List.of("email", "id", "name")));
    }

    @Test
    void httpClientWrapperCapturesValidatesAndBuildsAConsumer() throws Exception {
        List<ValidationResult> failures = new CopyOnWriteArrayList<>();
        CapturingHttpClient http = CapturingHttpClient.wrap(HttpClient.newHttpClient(),
                CaptureOptions.autoValidate(validator).onValidationFailure((result, interaction) -> failures.add(result)));

        HttpResponse<String> user = http.send(HttpRequest.newBuilder(URI.create(app.baseUrl() + "/users/42?expand=posts")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(UsersApp.USER_JSON, user.body(), "the caller reads the body as usual");
        http.send(HttpRequest.newBuilder(URI.create(app.baseUrl() + "/users")).build(), HttpResponse.BodyHandlers.ofByteArray());
        http.sendAsync(HttpRequest.newBuilder(URI.create(app.baseUrl() + "/users")).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"Ada\",\"email\":\"ada@example.com\"}")).build(),
                HttpResponse.BodyHandlers.ofString()).get();
        http.send(HttpRequest.newBuilder(URI.create(app.baseUrl() + "/users/13")).build(), HttpResponse.BodyHandlers.discarding());

        List<CapturedInteraction> interactions = http.interactions();
        assertEquals(4, interactions.size());
        CapturedInteraction first = interactions.get(0);
        assertEquals("/users/42?expand=posts", first.request().path());
        assertEquals("application/json", first.response().headers().get("content-type"));
        assertTrue(first.validationResult().orElseThrow().valid());
        assertTrue(interactions.get(2).request().body().contains("ada@example.com"), "request body recorded");
        assertTrue(interactions.get(2).validationResult().orElseThrow().valid(), interactions.get(2).toString());
        assertEquals(1, failures.size(), "user 13 lacks its email");
        assertFalse(interactions.get(3).validationResult().orElseThrow().valid());

        ConsumerRegistration registration = validator.buildConsumerFromInteractions(interactions.subList(0, 3),
                AutoRegisterConfig.of("java-web", "1.0.0"));
        assertEquals(expectedUsage(), registration.usedEndpoints());

        http.clearInteractions();
        assertEquals(List.of(), http.interactions());
    }

    @Test
    void httpClientWrapperRecordsAStreamedBodyOnceTheCallerHasReadIt() throws Exception {
        CapturingHttpClient http = CapturingHttpClient.wrap(HttpClient.newHttpClient(), CaptureOptions.RECORD_ONLY);
        app.releaseStream();
        HttpResponse<InputStream> response = http.send(HttpRequest.newBuilder(URI.create(app.baseUrl() + "/users/42")).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream body = response.body()) {
            assertEquals(UsersApp.USER_JSON, new String(body.readAllBytes(), StandardCharsets.UTF_8));
        }
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (http.interactions().isEmpty() && System.nanoTime() < deadline) Thread.sleep(5);
        assertEquals(UsersApp.USER_JSON, http.interactions().get(0).response().body());
    }

    @Test
    void okHttpInterceptorCapturesValidatesAndRegistersAConsumer() throws Exception {
        List<ValidationResult> failures = new CopyOnWriteArrayList<>();
        OkHttpCapture capture = new OkHttpCapture(CaptureOptions.autoValidate(validator)
                .onValidationFailure((result, interaction) -> failures.add(result)));
        OkHttpClient http = new OkHttpClient.Builder().addInterceptor(capture).build();
        try {
            try (Response user = http.newCall(new Request.Builder().url(app.baseUrl() + "/users/42?expand=posts").build()).execute()) {
                assertEquals(UsersApp.USER_JSON, user.body().string(), "the caller reads the body as usual");
            }
            http.newCall(new Request.Builder().url(app.baseUrl() + "/users").build()).execute().close();
            RequestBody json = RequestBody.create("{\"name\":\"Ada\",\"email\":\"ada@example.com\"}", MediaType.get("application/json"));
            http.newCall(new Request.Builder().url(app.baseUrl() + "/users").post(json).build()).execute().close();
            http.newCall(new Request.Builder().url(app.baseUrl() + "/users/13").build()).execute().close();

            List<CapturedInteraction> interactions = capture.interactions();
            assertEquals(4, interactions.size());
            assertEquals("application/json; charset=utf-8", interactions.get(2).request().headers().get("content-type"));
            assertTrue(interactions.get(2).validationResult().orElseThrow().valid(), interactions.get(2).toString());
            assertEquals(1, failures.size());

            var registered = validator.registerConsumerFromInteractions(interactions.subList(0, 3),
                    AutoRegisterConfig.of("java-mobile", "2.0.0").withSchema(SCHEMA, "1.0.0"));
            assertEquals(expectedUsage(), registered.usedEndpoints());
            assertEquals("1.0.0", registered.schemaVersion());

            capture.clearInteractions();
            assertEquals(List.of(), capture.interactions());
        } finally {
            http.dispatcher().executorService().shutdown();
            http.connectionPool().evictAll();
        }
    }

    @Test
    void autoValidationAgainstAValidatorThatIsDownFailsTheCall() {
        try (ContractValidator down = ContractValidator.builder().address("127.0.0.1:" + Ports.closedPort()).build()) {
            CapturingHttpClient http = CapturingHttpClient.wrap(HttpClient.newHttpClient(),
                    CaptureOptions.autoValidate(down).withTarget(RequestOptions.schema(SCHEMA)));
            ContractValidatorException error = assertThrows(ContractValidatorException.class, () ->
                    http.send(HttpRequest.newBuilder(URI.create(app.baseUrl() + "/users/42")).build(), HttpResponse.BodyHandlers.ofString()));
            assertEquals(ErrorCode.UNAVAILABLE, error.code(), "a contract test must not pass because nothing was checked");
        }
    }

    @Test
    void bodiesOverTheLimitAreRecordedWithoutThem() throws Exception {
        OkHttpCapture capture = new OkHttpCapture(CaptureOptions.RECORD_ONLY.withLimits(10, 8));
        OkHttpClient http = new OkHttpClient.Builder().addInterceptor(capture).build();
        try (Response user = http.newCall(new Request.Builder().url(app.baseUrl() + "/users/42").build()).execute()) {
            assertEquals(UsersApp.USER_JSON, user.body().string(), "the caller still gets the whole body");
        } finally {
            http.dispatcher().executorService().shutdown();
        }
        assertEquals("", capture.interactions().get(0).response().body());
    }
}
