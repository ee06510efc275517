package dev.svc.client.testkit;

import dev.svc.client.ContractValidator;
import dev.svc.client.RequestOptions;
import dev.svc.client.TlsConfig;
import dev.svc.client.ValidationRequest;
import dev.svc.client.ValidationResponse;
import dev.svc.client.ValidationResult;
import java.time.Duration;
import java.util.Map;

/**
 * For a provider's own test suite (JUnit 5 or any other): checks the responses its handlers produce
 * against the registered schema (ValidateProducerResponse: the response only). {@code assertValidResponse}
 * fails with an {@link AssertionError} that lists the violations.
 *
 * <pre>{@code
 * @AutoClose
 * static ProducerTestKit kit = ProducerTestKit.builder("users").serverAddress("localhost:9550").build();
 *
 * @Test
 * void getUserFollowsTheContract() {
 *     kit.assertValidResponse("GET", "/users/42", 200, handler.get(42));
 * }
 * }</pre>
 */
public final class ProducerTestKit implements AutoCloseable {
    private final ContractValidator validator;
    private final String schemaId;

    private ProducerTestKit(ContractValidator validator, String schemaId) {
        this.validator = validator;
        this.schemaId = schemaId;
    }

    public static Builder builder(String schemaId) {
        return new Builder(schemaId);
    }

    public String schemaId() {
        return schemaId;
    }

    /** Validates a response; the request path gives path parameters. Violations are in the result. */
    public ValidationResult validateResponse(String method, String path, int statusCode, String body, Map<String, String> headers) {
        ValidationResponse response = new ValidationResponse(statusCode, headers == null ? Map.of() : headers, body);
        if (!response.body().isEmpty() && !response.headers().containsKey("content-type")) response = response.withHeader("content-type", "application/json");
        return validator.validateProducerResponse(ValidationRequest.of(method, path), response, RequestOptions.DEFAULTS);
    }

    public ValidationResult validateResponse(String method, String path, int statusCode, String body) {
        return validateResponse(method, path, statusCode, body, Map.of());
    }

    /** Fails with the list of violations unless the response follows the contract. */
    public ValidationResult assertValidResponse(String method, String path, int statusCode, String body, Map<String, String> headers) {
        ValidationResult result = validateResponse(method, path, statusCode, body, headers);
        if (!result.valid()) {
            StringBuilder message = new StringBuilder()
                    .append(method).append(' ').append(path).append(" -> ").append(statusCode)
                    .append(" does not follow the contract of schema \"").append(schemaId).append('"');
            if (!result.validatedAgainstVersion().isEmpty()) message.append(" (version ").append(result.validatedAgainstVersion()).append(')');
            message.append(':');
            for (String error : result.errors()) message.append("\n  - ").append(error);
            throw new AssertionError(message.toString());
        }
        return result;
    }

    public ValidationResult assertValidResponse(String method, String path, int statusCode, String body) {
        return assertValidResponse(method, path, statusCode, body, Map.of());
    }

    /** Idempotent. */
    @Override
    public void close() {
        validator.close();
    }

    public static final class Builder {
        private final String schemaId;
        private String schemaVersion;
        private final ContractValidator.Builder client = ContractValidator.builder();

        private Builder(String schemaId) {
            if (schemaId == null || schemaId.isEmpty()) throw new IllegalArgumentException("schemaId must be non-empty");
            this.schemaId = schemaId;
        }

        /** Default the latest version. */
        public Builder schemaVersion(String value) {
            this.schemaVersion = value;
            return this;
        }

        /** Default {@code localhost:9550}. */
        public Builder serverAddress(String value) {
            client.address(value);
            return this;
        }

        public Builder tls(TlsConfig value) {
            client.tls(value);
            return this;
        }

        public Builder apiKey(String value) {
            client.apiKey(value);
            return this;
        }

        public Builder deadline(Duration value) {
            client.deadline(value);
            return this;
        }

        public ProducerTestKit build() {
            return new ProducerTestKit(client.schema(schemaId, schemaVersion).build(), schemaId);
        }
    }
}
