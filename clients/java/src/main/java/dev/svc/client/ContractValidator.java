package dev.svc.client;

import dev.svc.client.internal.ConsumerBuilder;
import dev.svc.client.internal.SchemaSource;
import dev.svc.client.internal.ValidateManyCall;
import dev.svc.client.internal.Wire;
import io.grpc.ChannelCredentials;
import io.grpc.ClientInterceptor;
import io.grpc.Deadline;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import io.grpc.Metadata;
import io.grpc.TlsChannelCredentials;
import io.grpc.stub.MetadataUtils;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import svc.ContractValidatorGrpc;
import svc.ContractValidatorGrpc.ContractValidatorBlockingStub;
import svc.Svc;

/**
 * The Java client of the svc contract validation service: one gRPC channel per instance, closed by
 * {@link #close()}. The instance is bound to the schema registered through it (or given to the
 * builder), so consumer tests read {@code validate(request, response)} without repeating the schema id.
 *
 * <p>Transport failures and refused operations throw {@link ContractValidatorException}; validation
 * failures are returned ({@code valid() == false}), never thrown. Instances are thread-safe.
 *
 * <pre>{@code
 * try (ContractValidator validator = ContractValidator.builder().address("localhost:9550").build()) {
 *     validator.registerSchema("users", "openapi/users.yaml");
 *     ValidationResult result = validator.validate(ValidationRequest.of("GET", "/users/42"),
 *             ValidationResponse.of(200).withJsonBody(Map.of("id", 42, "name", "Ada")));
 * }
 * }</pre>
 */
public final class ContractValidator implements AutoCloseable {
    public static final String DEFAULT_ADDRESS = "localhost:9550";
    /** The spec's connection time-out default of the tools. */
    public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(30);
    /** Largest message received; above the server's 32 MiB schema limit so that limit answers first. */
    public static final int MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
    /** Metadata entry that carries the API key (the server also accepts {@code authorization: Bearer}). */
    public static final String API_KEY_METADATA_KEY = "x-api-key";

    private static final long CLOSE_GRACE_MS = 5_000;

    private final ManagedChannel channel;
    private final String address;
    private final Duration defaultDeadline;
    private volatile String schemaId;
    private volatile String schemaVersion;
    private volatile boolean closed;

    private ContractValidator(Builder builder) {
        this.address = builder.address;
        this.defaultDeadline = builder.deadline;
        this.schemaId = builder.schemaId;
        this.schemaVersion = builder.schemaVersion;
        this.channel = openChannel(builder);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The server address the client talks to. */
    public String address() {
        return address;
    }

    /** The schema the client is bound to (by registerSchema or the builder). */
    public Optional<String> schemaId() {
        return Optional.ofNullable(schemaId);
    }

    /** The bound version; empty means the latest. */
    public Optional<String> schemaVersion() {
        return Optional.ofNullable(schemaVersion);
    }

    // ---- Schemas -------------------------------------------------------------------------------

    /** Registers the document at {@code schemaPath} (file, file: URL or http(s) URL; JSON or YAML) and binds the client to it. */
    public SchemaRegistration registerSchema(String schemaId, String schemaPath) {
        return registerSchema(schemaId, schemaPath, RegisterSchemaOptions.DEFAULTS);
    }

    public SchemaRegistration registerSchemaWithVersion(String schemaId, String schemaPath, String version) {
        requireText("version", version);
        return registerSchema(schemaId, schemaPath, RegisterSchemaOptions.DEFAULTS.withVersion(version));
    }

    public SchemaRegistration registerSchema(String schemaId, String schemaPath, RegisterSchemaOptions options) {
        requireText("schemaId", schemaId);
        return registerSchemaContent(schemaId, SchemaSource.read(schemaPath), options);
    }

    /** Registers a document given as text (JSON or YAML) and binds the client to it. */
    public SchemaRegistration registerSchemaContent(String schemaId, String content, RegisterSchemaOptions options) {
        requireText("schemaId", schemaId);
        Objects.requireNonNull(options, "options");
        Svc.RegisterSchemaRequest.Builder request = Svc.RegisterSchemaRequest.newBuilder()
                .setSchemaId(schemaId)
                .setSchemaContent(content)
                .setSchemaVersion(Wire.orEmpty(options.version()))
                .setCheckCompatibility(options.checkCompatibility());
        if (options.ownership() != null) request.setOwnership(Wire.ownership(options.ownership()));
        Svc.RegisterSchemaResponse response = call(null, stub -> stub.registerSchema(request.build()));
        if (!response.getSuccess() || !response.hasMetadata()) throw ContractValidatorException.rejected("RegisterSchema", response.getMessage());
        SchemaMetadata metadata = Wire.schemaMetadata(response.getMetadata());
        synchronized (this) {
            this.schemaId = metadata.schemaId();
            this.schemaVersion = metadata.schemaVersion();
        }
        return new SchemaRegistration(response.getMessage(), metadata, Wire.breakingChanges(response.getBreakingChangesList()));
    }

    /** Metadata and content of a registered schema (latest version when {@code version} is null); empty when not registered. */
    public Optional<SchemaContent> getSchema(String schemaId, String version) {
        requireText("schemaId", schemaId);
        Svc.GetSchemaResponse response = call(null, stub -> stub.getSchema(Svc.GetSchemaRequest.newBuilder()
                .setSchemaId(schemaId).setSchemaVersion(Wire.orEmpty(version)).build()));
        if (!response.getFound() || !response.hasMetadata()) return Optional.empty();
        return Optional.of(new SchemaContent(Wire.schemaMetadata(response.getMetadata()), response.getSchemaContent()));
    }

    /** One page of registered schemas; {@code pageSize} 0 for the server's default (100), null filters for none. */
    public SchemaPage listSchemas(int pageSize, String pageToken, String owner, String team) {
        Svc.ListSchemasResponse response = call(null, stub -> stub.listSchemas(Svc.ListSchemasRequest.newBuilder()
                .setPageSize(pageSize).setPageToken(Wire.orEmpty(pageToken))
                .setOwner(Wire.orEmpty(owner)).setTeam(Wire.orEmpty(team)).build()));
        return new SchemaPage(response.getSchemasList().stream().map(Wire::schemaMetadata).toList(),
                response.getNextPageToken(), response.getTotalCount());
    }

    /** Breaking changes between two versions: null old means the previous version, null new the latest. */
    public CompareResult compareSchemas(String schemaId, String oldVersion, String newVersion) {
        requireText("schemaId", schemaId);
        Svc.CompareSchemasResponse response = call(null, stub -> stub.compareSchemas(Svc.CompareSchemasRequest.newBuilder()
                .setSchemaId(schemaId).setOldVersion(Wire.orEmpty(oldVersion)).setNewVersion(Wire.orEmpty(newVersion)).build()));
        if (!response.getMessage().isEmpty() && !response.hasOldSchema() && !response.hasNewSchema()) {
            throw ContractValidatorException.rejected("CompareSchemas", response.getMessage());
        }
        return Wire.compareResult(response);
    }

    public CompareResult compareSchemas(String schemaId) {
        return compareSchemas(schemaId, null, null);
    }

    public List<EndpointInfo> listEndpoints() {
        return listEndpoints(RequestOptions.DEFAULTS);
    }

    public List<EndpointInfo> listEndpoints(RequestOptions options) {
        Target target = target(options);
        Svc.ListEndpointsResponse response = call(options.deadline(), stub -> stub.listEndpoints(Svc.ListEndpointsRequest.newBuilder()
                .setSchemaId(target.schemaId()).setSchemaVersion(target.schemaVersion()).build()));
        return response.getEndpointsList().stream().map(Wire::endpointInfo).toList();
    }

    // ---- Validation ----------------------------------------------------------------------------

    /** Consumer validation: the request and the response are both checked. */
    public ValidationResult validate(ValidationRequest request, ValidationResponse response) {
        return validate(request, response, RequestOptions.DEFAULTS);
    }

    public ValidationResult validate(ValidationRequest request, ValidationResponse response, RequestOptions options) {
        Svc.InteractionRequest message = interactionRequest(target(options), request, response);
        return Wire.validationResult(call(options.deadline(), stub -> stub.validateInteraction(message)));
    }

    /** Checks a request alone (ValidateInteraction without a response), for example before a handler runs. */
    public ValidationResult validateRequest(ValidationRequest request, RequestOptions options) {
        Target target = target(options);
        Svc.InteractionRequest message = Svc.InteractionRequest.newBuilder()
                .setSchemaId(target.schemaId()).setSchemaVersion(target.schemaVersion())
                .setRequest(Wire.requestData(request)).build();
        return Wire.validationResult(call(options.deadline(), stub -> stub.validateInteraction(message)));
    }

    /**
     * Producer validation: only the response is checked. The request gives method and path; its
     * headers help path-parameter extraction, its body is not checked.
     */
    public ValidationResult validateProducerResponse(ValidationRequest request, ValidationResponse response, RequestOptions options) {
        Target target = target(options);
        Svc.ValidateProducerRequest message = Svc.ValidateProducerRequest.newBuilder()
                .setSchemaId(target.schemaId()).setSchemaVersion(target.schemaVersion())
                .setMethod(request.method().toUpperCase(Locale.ROOT)).setPath(request.path())
                .setResponse(Wire.responseData(response))
                .setRequest(Wire.requestData(request.withBody("")))
                .build();
        return Wire.validationResult(call(options.deadline(), stub -> stub.validateProducerResponse(message)));
    }

    public ValidationResult validateProducerResponse(String method, String path, ValidationResponse response) {
        return validateProducerResponse(ValidationRequest.of(method, path), response, RequestOptions.DEFAULTS);
    }

    /**
     * Validates many interactions over one stream (ValidateInteractionStream); results come back in
     * the order of {@code interactions}. The deadline covers the whole batch.
     */
    public List<ValidationResult> validateMany(List<? extends Interaction> interactions) {
        return validateMany(interactions, RequestOptions.DEFAULTS);
    }

    public List<ValidationResult> validateMany(List<? extends Interaction> interactions, RequestOptions options) {
        Target target = target(options);
        List<Svc.InteractionRequest> requests = new ArrayList<>(interactions.size());
        for (Interaction interaction : interactions) requests.add(interactionRequest(target, interaction.request(), interaction.response()));
        ensureOpen();
        return ValidateManyCall.run(channel, requests, deadline(options.deadline())).stream().map(Wire::validationResult).toList();
    }

    // ---- Fixtures ------------------------------------------------------------------------------

    /** A request/response pair for {@code method} and the path template {@code path}, valid against the schema. */
    public GeneratedFixture generateFixture(String method, String path) {
        return generateFixture(method, path, GenerateOptions.DEFAULTS);
    }

    public GeneratedFixture generateFixture(String method, String path, GenerateOptions options) {
        Svc.GenerateFixtureResponse response = generate(method, path, Svc.OutputType.OUTPUT_FIXTURE, options);
        if (!response.hasFixture()) throw ContractValidatorException.rejected("GenerateFixture", "the server sent no fixture");
        return new GeneratedFixture(Wire.generatedRequest(response.getFixture().getRequest()),
                Wire.generatedResponse(response.getFixture().getResponse()));
    }

    public GeneratedResponse generateResponse(String method, String path) {
        return generateResponse(method, path, GenerateOptions.DEFAULTS);
    }

    public GeneratedResponse generateResponse(String method, String path, GenerateOptions options) {
        Svc.GenerateFixtureResponse response = generate(method, path, Svc.OutputType.OUTPUT_RESPONSE, options);
        if (!response.hasResponse()) throw ContractValidatorException.rejected("GenerateFixture", "the server sent no response");
        return Wire.generatedResponse(response.getResponse());
    }

    /** The generated request body parsed from its JSON text (maps, lists, ...); null when the operation takes none. */
    public Object generateRequestBody(String method, String path) {
        return generateRequestBody(method, path, GenerateOptions.DEFAULTS);
    }

    public Object generateRequestBody(String method, String path, GenerateOptions options) {
        return dev.svc.client.internal.Json.parseOrText(generate(method, path, Svc.OutputType.OUTPUT_REQUEST, options).getRequestBody());
    }

    // ---- Consumers -----------------------------------------------------------------------------

    public ConsumerInfo registerConsumer(ConsumerRegistration registration) {
        Objects.requireNonNull(registration, "registration");
        requireText("consumerId", registration.consumerId());
        requireText("schemaId", registration.schemaId());
        Svc.RegisterConsumerRequest.Builder request = Svc.RegisterConsumerRequest.newBuilder()
                .setConsumerId(registration.consumerId())
                .setConsumerVersion(registration.consumerVersion())
                .setSchemaId(registration.schemaId())
                .setSchemaVersion(registration.schemaVersion())
                .setEnvironment(registration.environment());
        registration.usedEndpoints().forEach(usage -> request.addUsedEndpoints(Wire.endpointUsage(usage)));
        Svc.RegisterConsumerResponse response = call(null, stub -> stub.registerConsumer(request.build()));
        if (!response.getSuccess() || !response.hasConsumer()) throw ContractValidatorException.rejected("RegisterConsumer", response.getMessage());
        return Wire.consumerInfo(response.getConsumer());
    }

    /** Consumers of a schema, in {@code environment} (null for every environment). */
    public List<ConsumerInfo> listConsumers(String schemaId, String environment) {
        requireText("schemaId", schemaId);
        Svc.ListConsumersResponse response = call(null, stub -> stub.listConsumers(Svc.ListConsumersRequest.newBuilder()
                .setSchemaId(schemaId).setEnvironment(Wire.orEmpty(environment)).build()));
        return response.getConsumersList().stream().map(Wire::consumerInfo).toList();
    }

    public List<ConsumerInfo> listConsumers(String schemaId) {
        return listConsumers(schemaId, null);
    }

    /** Removes the registration {@code consumerId/schemaId/environment} (environment null for {@code dev}). */
    public void deregisterConsumer(String consumerId, String schemaId, String environment) {
        requireText("consumerId", consumerId);
        requireText("schemaId", schemaId);
        Svc.DeregisterConsumerResponse response = call(null, stub -> stub.deregisterConsumer(Svc.DeregisterConsumerRequest.newBuilder()
                .setConsumerId(consumerId).setSchemaId(schemaId).setEnvironment(Wire.orEmpty(environment)).build()));
        if (!response.getSuccess()) throw ContractValidatorException.rejected("DeregisterConsumer", response.getMessage());
    }

    /** Would {@code newVersion} break a consumer registered in {@code environment} (null for {@code prod})? */
    public CanIDeployResult canIDeploy(String schemaId, String newVersion, String environment) {
        requireText("schemaId", schemaId);
        requireText("newVersion", newVersion);
        Svc.CanIDeployResponse response = call(null, stub -> stub.canIDeploy(Svc.CanIDeployRequest.newBuilder()
                .setSchemaId(schemaId).setNewVersion(newVersion).setEnvironment(Wire.orEmpty(environment)).build()));
        return Wire.canIDeployResult(response);
    }

    /**
     * Builds (without registering) the consumer registration the interactions show: real paths mapped
     * to the schema's templates (ListEndpoints), response fields gathered per endpoint as used fields.
     * Interactions that match no endpoint of the schema are left out.
     */
    public ConsumerRegistration buildConsumerFromInteractions(List<? extends Interaction> interactions, AutoRegisterConfig config) {
        Objects.requireNonNull(interactions, "interactions");
        Objects.requireNonNull(config, "config");
        Target target = target(RequestOptions.schema(config.schemaId(), config.schemaVersion()));
        String version = target.schemaVersion().isEmpty() ? latestVersion(target.schemaId()) : target.schemaVersion();
        List<EndpointInfo> endpoints = listEndpoints(RequestOptions.schema(target.schemaId(), version));
        return ConsumerBuilder.build(interactions, endpoints, config.consumerId(), config.consumerVersion(),
                target.schemaId(), version, config.environment());
    }

    public ConsumerInfo registerConsumerFromInteractions(List<? extends Interaction> interactions, AutoRegisterConfig config) {
        return registerConsumer(buildConsumerFromInteractions(interactions, config));
    }

    /** Closes the channel; idempotent. Later calls fail with FAILED_PRECONDITION. */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        channel.shutdown();
        try {
            if (!channel.awaitTermination(CLOSE_GRACE_MS, TimeUnit.MILLISECONDS)) channel.shutdownNow();
        } catch (InterruptedException e) {
            channel.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    // ---- Internals -----------------------------------------------------------------------------

    private record Target(String schemaId, String schemaVersion) {}

    private Target target(RequestOptions options) {
        Objects.requireNonNull(options, "options");
        String boundId;
        String boundVersion;
        synchronized (this) {
            boundId = schemaId;
            boundVersion = schemaVersion;
        }
        String id = options.schemaId() != null ? options.schemaId() : boundId;
        if (id == null || id.isEmpty()) {
            throw new ContractValidatorException(ErrorCode.FAILED_PRECONDITION, "no schema: call registerSchema first, or pass a schemaId");
        }
        String version = options.schemaVersion() != null ? options.schemaVersion() : id.equals(boundId) ? boundVersion : null;
        return new Target(id, Wire.orEmpty(version));
    }

    private String latestVersion(String schemaId) {
        return getSchema(schemaId, null)
                .map(schema -> schema.metadata().schemaVersion())
                .orElseThrow(() -> new ContractValidatorException(ErrorCode.NOT_FOUND, "Schema not found: " + schemaId));
    }

    private Svc.InteractionRequest interactionRequest(Target target, ValidationRequest request, ValidationResponse response) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(response, "response");
        return Svc.InteractionRequest.newBuilder()
                .setSchemaId(target.schemaId()).setSchemaVersion(target.schemaVersion())
                .setRequest(Wire.requestData(request)).setResponse(Wire.responseData(response))
                .build();
    }

    private Svc.GenerateFixtureResponse generate(String method, String path, Svc.OutputType outputType, GenerateOptions options) {
        requireText("method", method);
        requireText("path", path);
        Objects.requireNonNull(options, "options");
        Target target = target(options.target());
        Svc.GenerateFixtureRequest request = Svc.GenerateFixtureRequest.newBuilder()
                .setSchemaId(target.schemaId()).setSchemaVersion(target.schemaVersion())
                .setMethod(method.toUpperCase(Locale.ROOT)).setPath(path)
                .setStatusCode(options.statusCode()).setUseExamples(options.useExamples())
                .setContentType(Wire.orEmpty(options.contentType())).setOutputType(outputType)
                .build();
        Svc.GenerateFixtureResponse response = call(options.target().deadline(), stub -> stub.generateFixture(request));
        if (!response.getSuccess()) throw ContractValidatorException.rejected("GenerateFixture", response.getMessage());
        return response;
    }

    private <T> T call(Duration deadline, Function<ContractValidatorBlockingStub, T> operation) {
        ensureOpen();
        try {
            return operation.apply(ContractValidatorGrpc.newBlockingStub(channel).withDeadline(deadline(deadline)));
        } catch (RuntimeException e) {
            throw ContractValidatorException.from(e);
        }
    }

    private Deadline deadline(Duration callDeadline) {
        Duration value = callDeadline != null ? callDeadline : defaultDeadline;
        return Deadline.after(value.toNanos(), TimeUnit.NANOSECONDS);
    }

    private void ensureOpen() {
        if (closed) throw new ContractValidatorException(ErrorCode.FAILED_PRECONDITION, "the client is closed");
    }

    private static void requireText(String name, String value) {
        if (value == null || value.isEmpty()) throw ContractValidatorException.invalidArgument(name + " must be a non-empty string");
    }

    private static ManagedChannel openChannel(Builder builder) {
        ManagedChannelBuilder<?> channel = Grpc.newChannelBuilder(builder.address, credentials(builder.tls))
                .maxInboundMessageSize(MAX_MESSAGE_BYTES);
        if (builder.tls != null && builder.tls.serverNameOverride() != null) channel.overrideAuthority(builder.tls.serverNameOverride());
        if (builder.apiKey != null) {
            Metadata headers = new Metadata();
            headers.put(Metadata.Key.of(API_KEY_METADATA_KEY, Metadata.ASCII_STRING_MARSHALLER), builder.apiKey);
            ClientInterceptor attachKey = MetadataUtils.newAttachHeadersInterceptor(headers);
            channel.intercept(attachKey);
        }
        return channel.build();
    }

    private static ChannelCredentials credentials(TlsConfig tls) {
        if (tls == null) return InsecureChannelCredentials.create();
        try {
            TlsChannelCredentials.Builder credentials = TlsChannelCredentials.newBuilder();
            if (tls.rootCertificate() != null) credentials.trustManager(tls.rootCertificate().toFile());
            if (tls.certificateChain() != null) credentials.keyManager(tls.certificateChain().toFile(), tls.privateKey().toFile());
            return credentials.build();
        } catch (IOException e) {
            throw new IllegalArgumentException("tls: cannot read a certificate or key file: " + e.getMessage(), e);
        }
    }

    /** Configuration of a {@link ContractValidator}; errors name the option. */
    public static final class Builder {
        private String address = DEFAULT_ADDRESS;
        private TlsConfig tls;
        private String apiKey;
        private Duration deadline = DEFAULT_DEADLINE;
        private String schemaId;
        private String schemaVersion;

        private Builder() {}

        /** {@code host:port} of the svc server, or any grpc-java target ({@code dns:///svc:9550}). */
        public Builder address(String value) {
            if (value == null || value.isEmpty()) throw new IllegalArgumentException("address must be a non-empty host:port");
            this.address = value;
            return this;
        }

        /** Connect over TLS; null for plaintext. */
        public Builder tls(TlsConfig value) {
            this.tls = value;
            return this;
        }

        /** Sent with every call as the {@code x-api-key} metadata entry. */
        public Builder apiKey(String value) {
            if (value != null && value.isEmpty()) throw new IllegalArgumentException("apiKey must be non-empty when given");
            this.apiKey = value;
            return this;
        }

        /** Deadline of each call unless the call gives its own; default 30 seconds. */
        public Builder deadline(Duration value) {
            if (value == null || value.isNegative() || value.isZero()) throw new IllegalArgumentException("deadline must be positive (got " + value + ")");
            this.deadline = value;
            return this;
        }

        /** Binds the client to an already registered schema (registerSchema binds it too); null version for the latest. */
        public Builder schema(String id, String version) {
            if (id == null || id.isEmpty()) throw new IllegalArgumentException("schema id must be non-empty");
            this.schemaId = id;
            this.schemaVersion = version;
            return this;
        }

        public ContractValidator build() {
            return new ContractValidator(this);
        }
    }
}
