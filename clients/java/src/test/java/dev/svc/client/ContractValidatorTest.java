package dev.svc.client;

import static dev.svc.client.support.Documents.document;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.client.support.Ports;
import dev.svc.client.support.SharedServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Every method of ContractValidator against a real svc server. */
class ContractValidatorTest {
    private static final ValidationRequest GET_USER = ValidationRequest.of("GET", "/users/42").withHeader("accept", "application/json");
    private static final ValidationResponse USER = ValidationResponse.of(200)
            .withJsonBody(Map.of("id", 42, "name", "Ada", "email", "ada@example.com"));

    private ContractValidator client;

    @BeforeEach
    void connect() {
        client = ContractValidator.builder().address(SharedServer.address()).build();
    }

    @AfterEach
    void close() {
        client.close();
    }

    @Test
    void registerSchemaBindsTheClientAndReportsMetadata() {
        SchemaRegistration registration = client.registerSchemaWithVersion("java-register", document("users-v1.yaml"), "1.0.0");
        assertEquals("java-register", registration.metadata().schemaId());
        assertEquals("1.0.0", registration.metadata().schemaVersion());
        assertEquals(5, registration.metadata().endpointCount());
        assertTrue(registration.metadata().schemaHash().matches("[0-9a-f]{64}"));
        assertEquals("java-register", client.schemaId().orElseThrow());
        assertEquals("1.0.0", client.schemaVersion().orElseThrow());

        SchemaRegistration second = client.registerSchema("java-register", document("users-v1.1.yaml"));
        assertEquals("1.1.0", second.metadata().schemaVersion(), "info.version is used when no version is given");
    }

    @Test
    void registerSchemaWithOwnershipAndCompatibilityCheck() throws Exception {
        client.registerSchemaWithVersion("java-register-compat", document("users-v1.yaml"), "1.0.0");
        SchemaRegistration registration = client.registerSchema("java-register-compat", document("users-v2.yaml"),
                RegisterSchemaOptions.DEFAULTS.withVersion("2.0.0").withOwnership(SchemaOwnership.of("ada", "identity"))
                        .withCheckCompatibility(true));
        assertFalse(registration.breakingChanges().isEmpty(), "users-v2 breaks users-v1");
        assertEquals("identity", registration.metadata().ownership().team());

        SchemaContent content = client.getSchema("java-register-compat", "1.0.0").orElseThrow();
        assertEquals(Files.readString(Path.of(document("users-v1.yaml"))), content.content());
        assertTrue(client.getSchema("java-register-compat", "9.9.9").isEmpty());
        assertTrue(client.getSchema("java-no-such-schema", null).isEmpty());

        SchemaPage page = client.listSchemas(0, null, "ada", null);
        assertTrue(page.schemas().stream().anyMatch(s -> s.schemaId().equals("java-register-compat")));
    }

    @Test
    void registerSchemaFromContentAndFromFileUrl(@TempDir Path folder) throws Exception {
        String text = Files.readString(Path.of(document("users-v1.yaml")));
        assertEquals("1.0.0", client.registerSchemaContent("java-content", text, RegisterSchemaOptions.DEFAULTS).metadata().schemaVersion());
        Path copy = Files.writeString(folder.resolve("users.yaml"), text);
        assertEquals("java-url", client.registerSchema("java-url", copy.toUri().toString()).metadata().schemaId());
    }

    @Test
    void anInvalidDocumentIsRejected() {
        ContractValidatorException error = assertThrows(ContractValidatorException.class,
                () -> client.registerSchema("java-invalid", document("not-openapi.yaml")));
        assertEquals(ErrorCode.REJECTED, error.code());
        assertTrue(error.details().startsWith("Invalid schema"), error.details());
    }

    @Test
    void aMissingFileIsAnInvalidArgument() {
        ContractValidatorException error = assertThrows(ContractValidatorException.class,
                () -> client.registerSchema("java-missing", "/no/such/file.yaml"));
        assertEquals(ErrorCode.INVALID_ARGUMENT, error.code());
    }

    @Test
    void validateReturnsViolationsAsResults() {
        client.registerSchemaWithVersion("java-validate", document("users-v1.yaml"), "1.0.0");
        ValidationResult valid = client.validate(GET_USER, USER);
        assertTrue(valid.valid(), valid.errors().toString());
        assertEquals("1.0.0", valid.validatedAgainstVersion());

        ValidationResult invalid = client.validate(GET_USER, ValidationResponse.of(200).withJsonBody(Map.of("id", 42)));
        assertFalse(invalid.valid());
        assertTrue(invalid.errors().stream().anyMatch(e -> e.contains("email")), invalid.errors().toString());

        ValidationResult badPath = client.validate(ValidationRequest.of("GET", "/users/abc"), USER);
        assertFalse(badPath.valid());
    }

    @Test
    void validateRequestAndProducerResponse() {
        client.registerSchemaWithVersion("java-producer", document("users-v1.yaml"), "1.0.0");
        ValidationRequest create = ValidationRequest.of("POST", "/users").withJsonBody(Map.of("name", "Ada", "email", "ada@example.com"));
        assertTrue(client.validateRequest(create, RequestOptions.DEFAULTS).valid());
        assertFalse(client.validateRequest(ValidationRequest.of("POST", "/users").withJsonBody(Map.of("name", "Ada")), RequestOptions.DEFAULTS).valid());

        assertTrue(client.validateProducerResponse("GET", "/users/42", USER).valid());
        ValidationResult missing = client.validateProducerResponse("GET", "/users/42", ValidationResponse.of(200).withJsonBody(Map.of("id", 1)));
        assertFalse(missing.valid());
        assertTrue(missing.errors().stream().anyMatch(e -> e.contains("email")), missing.errors().toString());
    }

    @Test
    void validateManyAnswersInOrderOverOneStream() {
        client.registerSchemaWithVersion("java-many", document("users-v1.yaml"), "1.0.0");
        List<Interaction> interactions = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            ValidationResponse response = i % 7 == 3 ? ValidationResponse.of(200).withJsonBody(Map.of("id", i)) : USER;
            interactions.add(Interaction.of(ValidationRequest.of("GET", "/users/" + i), response));
        }
        List<ValidationResult> results = client.validateMany(interactions);
        assertEquals(interactions.size(), results.size());
        for (int i = 0; i < results.size(); i++) assertEquals(i % 7 != 3, results.get(i).valid(), "interaction " + i);
        assertEquals(List.of(), client.validateMany(List.of()));
    }

    @Test
    void validateManyAgainstAnotherSchemaAndVersion() {
        client.registerSchemaWithVersion("java-many-v", document("users-v1.yaml"), "1.0.0");
        client.registerSchemaWithVersion("java-many-v", document("users-v1.1.yaml"), "1.1.0");
        try (ContractValidator unbound = ContractValidator.builder().address(SharedServer.address()).build()) {
            List<ValidationResult> results = unbound.validateMany(List.of(Interaction.of(GET_USER, USER)), RequestOptions.schema("java-many-v", "1.0.0"));
            assertEquals("1.0.0", results.get(0).validatedAgainstVersion());
        }
    }

    @Test
    void compareSchemasAndCanIDeploy() {
        client.registerSchemaWithVersion("java-compare", document("users-v1.yaml"), "1.0.0");
        client.registerSchemaWithVersion("java-compare", document("users-v2.yaml"), "2.0.0");
        CompareResult comparison = client.compareSchemas("java-compare");
        assertFalse(comparison.compatible());
        assertEquals("1.0.0", comparison.oldSchema().schemaVersion());
        assertEquals("2.0.0", comparison.newSchema().schemaVersion());
        assertTrue(comparison.breakingChanges().stream().allMatch(c -> c.type() != BreakingChangeType.BREAKING_CHANGE_UNSPECIFIED));

        ContractValidatorException unknown = assertThrows(ContractValidatorException.class, () -> client.compareSchemas("java-compare-none"));
        assertEquals(ErrorCode.REJECTED, unknown.code());

        assertTrue(client.canIDeploy("java-compare", "2.0.0", "prod").safeToDeploy(), "no consumers registered");
        List<EndpointUsage> usage = comparison.breakingChanges().stream()
                .filter(c -> !c.path().isEmpty() && !c.method().isEmpty()).limit(1)
                .map(c -> new EndpointUsage(c.method(), c.path(), List.of("id"))).toList();
        assertFalse(usage.isEmpty(), "a breaking change tied to an endpoint");
        client.registerConsumer(new ConsumerRegistration("web", "3.1.0", "java-compare", "1.0.0", "prod", usage));
        CanIDeployResult verdict = client.canIDeploy("java-compare", "2.0.0", "prod");
        assertFalse(verdict.safeToDeploy());
        assertEquals("web", verdict.affectedConsumers().get(0).consumerId());
        assertTrue(verdict.affectedConsumers().get(0).willBreak());
    }

    @Test
    void generateFixtureResponseAndRequestBody() {
        client.registerSchemaWithVersion("java-generate", document("users-v1.yaml"), "1.0.0");
        GeneratedFixture fixture = client.generateFixture("GET", "/users/{id}");
        assertEquals(200, fixture.response().statusCode());
        assertTrue(client.validate(ValidationRequest.of("GET", "/users/42"),
                new ValidationResponse(200, fixture.response().headers(), fixture.response().body())).valid());

        GeneratedResponse notFound = client.generateResponse("GET", "/users/{id}", GenerateOptions.DEFAULTS.withStatusCode(404));
        assertEquals(404, notFound.statusCode());

        Object body = client.generateRequestBody("post", "/users");
        assertTrue(body instanceof Map<?, ?> map && map.containsKey("email"), String.valueOf(body));
        assertEquals(null, client.generateRequestBody("GET", "/users"));

        ContractValidatorException unknownPath = assertThrows(ContractValidatorException.class, () -> client.generateFixture("GET", "/nowhere"));
        assertEquals(ErrorCode.REJECTED, unknownPath.code());
    }

    @Test
    void listEndpoints() {
        client.registerSchemaWithVersion("java-endpoints", document("users-v1.yaml"), "1.0.0");
        List<EndpointInfo> endpoints = client.listEndpoints();
        assertEquals(5, endpoints.size());
        assertTrue(endpoints.contains(new EndpointInfo("GET", "/users/{id}", "getUser", "Get a user")), endpoints.toString());
    }

    @Test
    void consumersRegisterListAndDeregister() {
        client.registerSchemaWithVersion("java-consumers", document("users-v1.yaml"), "1.0.0");
        List<EndpointUsage> usage = List.of(new EndpointUsage("get", "/users/{id}", List.of("id", "name")));
        ConsumerInfo info = client.registerConsumer(new ConsumerRegistration("mobile", "1.2.0", "java-consumers", "1.0.0", null, usage));
        assertEquals("dev", info.environment());
        assertEquals("GET", info.usedEndpoints().get(0).method());
        client.registerConsumer(new ConsumerRegistration("mobile", "1.2.0", "java-consumers", "1.0.0", "staging", usage));

        assertEquals(2, client.listConsumers("java-consumers").size());
        assertEquals(1, client.listConsumers("java-consumers", "staging").size());

        client.deregisterConsumer("mobile", "java-consumers", "staging");
        assertEquals(List.of("dev"), client.listConsumers("java-consumers").stream().map(ConsumerInfo::environment).toList());
        ContractValidatorException again = assertThrows(ContractValidatorException.class,
                () -> client.deregisterConsumer("mobile", "java-consumers", "staging"));
        assertEquals(ErrorCode.REJECTED, again.code());
    }

    @Test
    void consumersFromInteractionsUseTemplatesAndUsedFields() {
        client.registerSchemaWithVersion("java-interactions", document("users-v1.yaml"), "1.0.0");
        List<Interaction> traffic = List.of(
                Interaction.of(ValidationRequest.of("GET", "/users/123?expand=posts"), USER),
                Interaction.of(ValidationRequest.of("GET", "/users/7"), ValidationResponse.of(200).withJsonBody(Map.of("id", 7, "role", "admin"))),
                Interaction.of(ValidationRequest.of("GET", "/users/7/posts"), ValidationResponse.of(200).withBody("[{\"id\":1,\"title\":\"t\"}]")),
                Interaction.of(ValidationRequest.of("GET", "/not/in/schema"), ValidationResponse.of(404)));
        ConsumerRegistration registration = client.buildConsumerFromInteractions(traffic, AutoRegisterConfig.of("web", "5.0.0"));
        assertEquals("1.0.0", registration.schemaVersion());
        assertEquals("dev", registration.environment());
        assertEquals(List.of(
                new EndpointUsage("GET", "/users/{id}", List.of("email", "id", "name", "role")),
                new EndpointUsage("GET", "/users/{id}/posts", List.of("[].id", "[].title"))), registration.usedEndpoints());

        ConsumerInfo registered = client.registerConsumerFromInteractions(traffic, AutoRegisterConfig.of("web", "5.0.0").withEnvironment("staging"));
        assertEquals("staging", registered.environment());
        assertEquals(2, registered.usedEndpoints().size());
    }

    @Test
    void aClientWithoutASchemaFailsWithFailedPrecondition() {
        ContractValidatorException error = assertThrows(ContractValidatorException.class, () -> client.validate(GET_USER, USER));
        assertEquals(ErrorCode.FAILED_PRECONDITION, error.code());
    }

    @Test
    void closeIsIdempotentAndLaterCallsFail() {
        client.close();
        client.close();
        ContractValidatorException error = assertThrows(ContractValidatorException.class, () -> client.listConsumers("x"));
        assertEquals(ErrorCode.FAILED_PRECONDITION, error.code());
    }

    @Test
    void aServerThatIsDownIsUnavailable() {
        try (ContractValidator down = ContractValidator.builder().address("127.0.0.1:" + Ports.closedPort())
                .deadline(Duration.ofSeconds(5)).schema("java-down", null).build()) {
            assertEquals(ErrorCode.UNAVAILABLE, assertThrows(ContractValidatorException.class, () -> down.validate(GET_USER, USER)).code());
            assertEquals(ErrorCode.UNAVAILABLE, assertThrows(ContractValidatorException.class,
                    () -> down.validateMany(List.of(Interaction.of(GET_USER, USER)))).code());
        }
    }

    @Test
    void aSlowServerRunsIntoTheDeadline() throws Exception {
        try (var hole = new dev.svc.client.support.BlackHole();
             ContractValidator slow = ContractValidator.builder().address(hole.address()).deadline(Duration.ofMillis(300)).schema("java-slow", null).build()) {
            long start = System.nanoTime();
            ContractValidatorException error = assertThrows(ContractValidatorException.class, () -> slow.validate(GET_USER, USER));
            assertEquals(ErrorCode.DEADLINE_EXCEEDED, error.code());
            assertTrue(Duration.ofNanos(System.nanoTime() - start).toMillis() < 5_000);
            ContractValidatorException perCall = assertThrows(ContractValidatorException.class,
                    () -> slow.validateMany(List.of(Interaction.of(GET_USER, USER)), RequestOptions.DEFAULTS.withDeadline(Duration.ofMillis(200))));
            assertEquals(ErrorCode.DEADLINE_EXCEEDED, perCall.code());
        }
    }

    @Test
    void builderOptionsAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> ContractValidator.builder().address(""));
        assertThrows(IllegalArgumentException.class, () -> ContractValidator.builder().deadline(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> new TlsConfig(null, Path.of("cert.pem"), null, null));
        try (ContractValidator defaults = ContractValidator.builder().build()) {
            assertEquals(ContractValidator.DEFAULT_ADDRESS, defaults.address());
        }
    }
}
