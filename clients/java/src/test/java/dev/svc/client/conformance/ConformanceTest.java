package dev.svc.client.conformance;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

import dev.svc.client.AutoRegisterConfig;
import dev.svc.client.ContractValidator;
import dev.svc.client.ContractValidatorException;
import dev.svc.client.ConsumerRegistration;
import dev.svc.client.EndpointUsage;
import dev.svc.client.GenerateOptions;
import dev.svc.client.Interaction;
import dev.svc.client.RequestOptions;
import dev.svc.client.ValidationRequest;
import dev.svc.client.ValidationResponse;
import dev.svc.client.internal.Json;
import dev.svc.client.support.Documents;
import dev.svc.client.support.Ports;
import dev.svc.client.support.SharedServer;
import dev.svc.client.support.SvcServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every case of the shared conformance suite (clients/conformance/cases) against a real svc
 * server: one dynamic test per case, a new client per case, calls mapped onto the Java client's methods.
 */
class ConformanceTest {

    @TestFactory
    Stream<DynamicTest> conformanceCases() throws IOException {
        Path cases = Documents.conformanceRoot().resolve("cases");
        List<Path> files;
        try (Stream<Path> listing = Files.list(cases)) {
            files = listing.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        assertFalse(files.isEmpty(), "no conformance cases in " + cases);
        return files.stream().map(file -> {
            Map<String, Object> conformanceCase = readCase(file);
            String name = String.valueOf(conformanceCase.getOrDefault("name", file.getFileName().toString()));
            return DynamicTest.dynamicTest(name, file.toUri(), () -> runCase(name, conformanceCase));
        });
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> readCase(Path file) {
        try {
            return (Map<String, Object>) Json.parse(Files.readString(file));
        } catch (IOException e) {
            throw new IllegalStateException("unreadable case " + file + ": " + e.getMessage(), e);
        }
    }

    @SuppressWarnings("unchecked")
    private static void runCase(String name, Map<String, Object> conformanceCase) throws IOException {
        Map<String, Object> serverSpec = (Map<String, Object>) conformanceCase.get("server");
        Map<String, Object> clientSpec = (Map<String, Object>) conformanceCase.getOrDefault("client", Map.of());
        SvcServer dedicated = null;
        try {
            String address;
            if (serverSpec != null && serverSpec.get("apiKeys") instanceof List<?> keys) {
                dedicated = SvcServer.start(SvcServer.Options.apiKeys(keys.stream().map(String::valueOf).toList()));
                address = dedicated.address();
            } else {
                address = SharedServer.address();
            }
            if ("down".equals(clientSpec.get("address"))) address = "127.0.0.1:" + Ports.closedPort();
            ContractValidator.Builder builder = ContractValidator.builder().address(address);
            if (clientSpec.get("apiKey") instanceof String key) builder.apiKey(key);
            if (clientSpec.get("deadline_ms") instanceof Number ms) builder.deadline(Duration.ofMillis(ms.longValue()));
            try (ContractValidator client = builder.build()) {
                List<Map<String, Object>> steps = (List<Map<String, Object>>) conformanceCase.get("steps");
                for (int i = 0; i < steps.size(); i++) runStep(name, i, client, steps.get(i));
            }
        } finally {
            if (dedicated != null) dedicated.close();
        }
    }

    @SuppressWarnings("unchecked")
    private static void runStep(String name, int index, ContractValidator client, Map<String, Object> step) {
        String call = (String) step.get("call");
        Map<String, Object> args = (Map<String, Object>) step.getOrDefault("args", Map.of());
        Map<String, Object> expect = (Map<String, Object>) step.get("expect");
        Object actual;
        ContractValidatorException error = null;
        try {
            actual = Canonical.of(invoke(client, call, args));
        } catch (ContractValidatorException e) {
            actual = null;
            error = e;
        }
        String where = name + " step " + index + " (" + call + ")";
        if (expect == null) {
            if (error != null) fail(where + ": expected success, got " + error.getMessage(), error);
        } else if (expect.containsKey("result")) {
            if (error != null) fail(where + ": expected a result matching " + Json.encode(expect.get("result")) + ", got " + error.getMessage(), error);
            Optional<String> mismatch = Expectation.mismatch(expect.get("result"), actual);
            if (mismatch.isPresent()) fail(where + ": " + mismatch.get() + "\n  expected: " + Json.encode(expect.get("result")) + "\n  actual:   " + Json.encode(actual));
        } else if (expect.containsKey("error")) {
            if (error == null) fail(where + ": expected an error matching " + Json.encode(expect.get("error")) + ", got " + Json.encode(actual));
            Map<String, Object> canonicalError = Map.of("code", error.code().name(), "message", error.details());
            Optional<String> mismatch = Expectation.mismatch(expect.get("error"), canonicalError);
            if (mismatch.isPresent()) fail(where + ": " + mismatch.get() + "\n  actual error: " + Json.encode(canonicalError));
        } else {
            fail(where + ": unknown expectation " + expect.keySet());
        }
    }

    @SuppressWarnings("unchecked")
    private static Object invoke(ContractValidator client, String call, Map<String, Object> args) {
        String schemaId = (String) args.get("schema_id");
        String schemaVersion = (String) args.get("schema_version");
        RequestOptions target = new RequestOptions(schemaId, schemaVersion, null);
        return switch (call) {
            case "register_schema" -> args.get("version") instanceof String version
                    ? client.registerSchemaWithVersion(schemaId, Documents.document((String) args.get("document")), version)
                    : client.registerSchema(schemaId, Documents.document((String) args.get("document")));
            case "validate" -> client.validate(request((Map<String, Object>) args.get("request")),
                    response((Map<String, Object>) args.get("response")), target);
            case "validate_many" -> client.validateMany(interactions(args.get("interactions")), target);
            case "compare_schemas" -> client.compareSchemas(schemaId, (String) args.get("old_version"), (String) args.get("new_version"));
            case "generate_fixture" -> client.generateFixture(text(args, "method"), text(args, "path"), generateOptions(args, target));
            case "generate_response" -> client.generateResponse(text(args, "method"), text(args, "path"), generateOptions(args, target));
            case "generate_request_body" -> client.generateRequestBody(text(args, "method"), text(args, "path"), generateOptions(args, target));
            case "list_endpoints" -> client.listEndpoints(target);
            case "register_consumer" -> client.registerConsumer(new ConsumerRegistration(text(args, "consumer_id"),
                    (String) args.get("consumer_version"), schemaId, schemaVersion, (String) args.get("environment"),
                    usedEndpoints(args.get("used_endpoints"))));
            case "list_consumers" -> client.listConsumers(schemaId, (String) args.get("environment"));
            case "deregister_consumer" -> {
                client.deregisterConsumer(text(args, "consumer_id"), schemaId, (String) args.get("environment"));
                yield null;
            }
            case "can_i_deploy" -> client.canIDeploy(schemaId, text(args, "new_version"), (String) args.get("environment"));
            case "build_consumer_from_interactions" -> client.buildConsumerFromInteractions(interactions(args.get("interactions")), config(args));
            case "register_consumer_from_interactions" -> client.registerConsumerFromInteractions(interactions(args.get("interactions")), config(args));
            default -> throw new IllegalArgumentException("unknown conformance call " + call);
        };
    }

    private static String text(Map<String, Object> args, String key) {
        return (String) args.get(key);
    }

    private static GenerateOptions generateOptions(Map<String, Object> args, RequestOptions target) {
        GenerateOptions options = GenerateOptions.DEFAULTS.withTarget(target);
        if (args.get("status_code") instanceof Number code) options = options.withStatusCode(code.intValue());
        if (args.get("use_examples") instanceof Boolean useExamples) options = options.withUseExamples(useExamples);
        return options;
    }

    @SuppressWarnings("unchecked")
    private static AutoRegisterConfig config(Map<String, Object> args) {
        Map<String, Object> config = (Map<String, Object>) args.get("config");
        return new AutoRegisterConfig((String) config.get("consumer_id"), (String) config.get("consumer_version"),
                (String) config.get("environment"), (String) config.get("schema_version"), (String) config.get("schema_id"));
    }

    @SuppressWarnings("unchecked")
    private static List<EndpointUsage> usedEndpoints(Object value) {
        if (value == null) return List.of();
        List<EndpointUsage> usage = new ArrayList<>();
        for (Map<String, Object> entry : (List<Map<String, Object>>) value) {
            List<String> fields = entry.get("used_fields") == null ? List.of() : (List<String>) entry.get("used_fields");
            usage.add(new EndpointUsage((String) entry.get("method"), (String) entry.get("path"), fields));
        }
        return usage;
    }

    @SuppressWarnings("unchecked")
    private static List<Interaction> interactions(Object value) {
        List<Interaction> result = new ArrayList<>();
        for (Map<String, Object> entry : (List<Map<String, Object>>) value) {
            result.add(Interaction.of(request((Map<String, Object>) entry.get("request")), response((Map<String, Object>) entry.get("response"))));
        }
        return result;
    }

    private static ValidationRequest request(Map<String, Object> spec) {
        ValidationRequest request = new ValidationRequest((String) spec.get("method"), (String) spec.get("path"), headers(spec), "");
        Object body = spec.get("body");
        if (body == null) return request;
        return body instanceof String text ? request.withBody(text) : request.withJsonBody(body);
    }

    private static ValidationResponse response(Map<String, Object> spec) {
        ValidationResponse response = new ValidationResponse(((Number) spec.get("status_code")).intValue(), headers(spec), "");
        Object body = spec.get("body");
        if (body == null) return response;
        return body instanceof String text ? response.withBody(text) : response.withJsonBody(body);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> headers(Map<String, Object> spec) {
        Map<String, String> headers = new LinkedHashMap<>();
        if (spec.get("headers") instanceof Map<?, ?> given) {
            ((Map<String, Object>) given).forEach((k, v) -> headers.put(k, String.valueOf(v)));
        }
        return headers;
    }
}
