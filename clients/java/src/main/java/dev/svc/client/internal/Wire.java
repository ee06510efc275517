package dev.svc.client.internal;

import dev.svc.client.BreakingChange;
import dev.svc.client.BreakingChangeType;
import dev.svc.client.CanIDeployResult;
import dev.svc.client.CompareResult;
import dev.svc.client.ConsumerImpact;
import dev.svc.client.ConsumerInfo;
import dev.svc.client.EndpointInfo;
import dev.svc.client.EndpointUsage;
import dev.svc.client.GeneratedRequest;
import dev.svc.client.GeneratedResponse;
import dev.svc.client.SchemaMetadata;
import dev.svc.client.SchemaOwnership;
import dev.svc.client.ValidationRequest;
import dev.svc.client.ValidationResponse;
import dev.svc.client.ValidationResult;
import java.util.List;
import java.util.Locale;
import svc.Svc;

/** The one place where the service's messages meet the library's records, in both directions. */
public final class Wire {
    private Wire() {}

    public static Svc.RequestData requestData(ValidationRequest request) {
        return Svc.RequestData.newBuilder()
                .setMethod(request.method().toUpperCase(Locale.ROOT))
                .setPath(request.path())
                .putAllHeaders(request.headers())
                .setBody(request.body())
                .build();
    }

    public static Svc.ResponseData responseData(ValidationResponse response) {
        return Svc.ResponseData.newBuilder()
                .setStatusCode(response.statusCode())
                .putAllHeaders(response.headers())
                .setBody(response.body())
                .build();
    }

    public static ValidationResult validationResult(Svc.ValidationResult message) {
        return new ValidationResult(message.getValid(), message.getErrorsList(),
                message.getValidatedAgainstVersion(), message.getValidatedAgainstHash());
    }

    public static SchemaMetadata schemaMetadata(Svc.SchemaMetadata message) {
        SchemaOwnership ownership = null;
        if (message.hasOwnership()) {
            Svc.SchemaOwnership o = message.getOwnership();
            ownership = new SchemaOwnership(o.getOwner(), o.getTeam(), o.getContactEmail(), o.getReadOnly());
        }
        return new SchemaMetadata(message.getSchemaId(), message.getSchemaVersion(), message.getSchemaHash(),
                message.getRegisteredAt(), message.getUpdatedAt(), ownership, message.getOpenapiVersion(),
                message.getEndpointCount());
    }

    public static Svc.SchemaOwnership ownership(SchemaOwnership ownership) {
        return Svc.SchemaOwnership.newBuilder()
                .setOwner(orEmpty(ownership.owner()))
                .setTeam(orEmpty(ownership.team()))
                .setContactEmail(orEmpty(ownership.contactEmail()))
                .setReadOnly(ownership.readOnly())
                .build();
    }

    public static BreakingChange breakingChange(Svc.BreakingChange message) {
        BreakingChangeType type = message.getType() == Svc.BreakingChangeType.UNRECOGNIZED
                ? BreakingChangeType.BREAKING_CHANGE_UNSPECIFIED
                : BreakingChangeType.valueOf(message.getType().name());
        return new BreakingChange(type, message.getPath(), message.getMethod(), message.getDescription(),
                message.getOldValue(), message.getNewValue());
    }

    public static List<BreakingChange> breakingChanges(List<Svc.BreakingChange> messages) {
        return messages.stream().map(Wire::breakingChange).toList();
    }

    public static CompareResult compareResult(Svc.CompareSchemasResponse message) {
        return new CompareResult(message.getCompatible(), breakingChanges(message.getBreakingChangesList()),
                message.hasOldSchema() ? schemaMetadata(message.getOldSchema()) : null,
                message.hasNewSchema() ? schemaMetadata(message.getNewSchema()) : null);
    }

    public static GeneratedRequest generatedRequest(Svc.GeneratedRequest message) {
        return new GeneratedRequest(message.getMethod(), message.getPath(), message.getHeadersMap(), message.getBody());
    }

    public static GeneratedResponse generatedResponse(Svc.GeneratedResponse message) {
        return new GeneratedResponse(message.getStatusCode(), message.getHeadersMap(), message.getBody());
    }

    public static EndpointInfo endpointInfo(Svc.EndpointInfo message) {
        return new EndpointInfo(message.getMethod(), message.getPath(), message.getOperationId(), message.getSummary());
    }

    public static Svc.EndpointUsage endpointUsage(EndpointUsage usage) {
        return Svc.EndpointUsage.newBuilder()
                .setMethod(usage.method().toUpperCase(Locale.ROOT))
                .setPath(usage.path())
                .addAllUsedFields(usage.usedFields())
                .build();
    }

    public static ConsumerInfo consumerInfo(Svc.ConsumerInfo message) {
        List<EndpointUsage> usage = message.getUsedEndpointsList().stream()
                .map(u -> new EndpointUsage(u.getMethod(), u.getPath(), u.getUsedFieldsList()))
                .toList();
        return new ConsumerInfo(message.getConsumerId(), message.getConsumerVersion(), message.getSchemaId(),
                message.getSchemaVersion(), message.getEnvironment(), message.getRegisteredAt(),
                message.getLastValidatedAt(), usage);
    }

    public static ConsumerImpact consumerImpact(Svc.ConsumerImpact message) {
        return new ConsumerImpact(message.getConsumerId(), message.getConsumerVersion(),
                message.getCurrentSchemaVersion(), message.getEnvironment(), message.getWillBreak(),
                breakingChanges(message.getRelevantChangesList()));
    }

    public static CanIDeployResult canIDeployResult(Svc.CanIDeployResponse message) {
        return new CanIDeployResult(message.getSafeToDeploy(), message.getSummary(),
                breakingChanges(message.getBreakingChangesList()),
                message.getAffectedConsumersList().stream().map(Wire::consumerImpact).toList());
    }

    public static String orEmpty(String value) {
        return value == null ? "" : value;
    }
}
