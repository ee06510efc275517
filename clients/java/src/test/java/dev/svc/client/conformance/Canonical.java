package dev.svc.client.conformance;

import dev.svc.client.BreakingChange;
import dev.svc.client.CanIDeployResult;
import dev.svc.client.CompareResult;
import dev.svc.client.ConsumerImpact;
import dev.svc.client.ConsumerInfo;
import dev.svc.client.ConsumerRegistration;
import dev.svc.client.EndpointInfo;
import dev.svc.client.EndpointUsage;
import dev.svc.client.GeneratedFixture;
import dev.svc.client.GeneratedRequest;
import dev.svc.client.GeneratedResponse;
import dev.svc.client.SchemaMetadata;
import dev.svc.client.SchemaOwnership;
import dev.svc.client.SchemaRegistration;
import dev.svc.client.ValidationResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The client's records in the suite's canonical form: the service's snake_case field names. */
final class Canonical {
    private Canonical() {}

    static Object of(Object value) {
        if (value == null) return null;
        if (value instanceof List<?> list) return list.stream().map(Canonical::of).toList();
        if (value instanceof ValidationResult r) return map("valid", r.valid(), "errors", r.errors(),
                "validated_against_version", r.validatedAgainstVersion(), "validated_against_hash", r.validatedAgainstHash());
        if (value instanceof SchemaRegistration r) return map("message", r.message(), "metadata", of(r.metadata()),
                "breaking_changes", of(r.breakingChanges()));
        if (value instanceof SchemaMetadata m) return map("schema_id", m.schemaId(), "schema_version", m.schemaVersion(),
                "schema_hash", m.schemaHash(), "registered_at", m.registeredAt(), "updated_at", m.updatedAt(),
                "ownership", of(m.ownership()), "openapi_version", m.openapiVersion(), "endpoint_count", (long) m.endpointCount());
        if (value instanceof SchemaOwnership o) return map("owner", o.owner(), "team", o.team(),
                "contact_email", o.contactEmail(), "read_only", o.readOnly());
        if (value instanceof BreakingChange c) return map("type", c.type().name(), "path", c.path(), "method", c.method(),
                "description", c.description(), "old_value", c.oldValue(), "new_value", c.newValue());
        if (value instanceof CompareResult c) return map("compatible", c.compatible(), "breaking_changes", of(c.breakingChanges()),
                "old_schema", of(c.oldSchema()), "new_schema", of(c.newSchema()));
        if (value instanceof GeneratedFixture f) return map("request", of(f.request()), "response", of(f.response()));
        if (value instanceof GeneratedRequest r) return map("method", r.method(), "path", r.path(), "headers", r.headers(),
                "body", r.parsedBody());
        if (value instanceof GeneratedResponse r) return map("status_code", (long) r.statusCode(), "headers", r.headers(),
                "body", r.parsedBody());
        if (value instanceof EndpointInfo e) return map("method", e.method(), "path", e.path(),
                "operation_id", e.operationId(), "summary", e.summary());
        if (value instanceof EndpointUsage u) return map("method", u.method(), "path", u.path(), "used_fields", u.usedFields());
        if (value instanceof ConsumerInfo c) return map("consumer_id", c.consumerId(), "consumer_version", c.consumerVersion(),
                "schema_id", c.schemaId(), "schema_version", c.schemaVersion(), "environment", c.environment(),
                "registered_at", c.registeredAt(), "last_validated_at", c.lastValidatedAt(), "used_endpoints", of(c.usedEndpoints()));
        if (value instanceof ConsumerRegistration c) return map("consumer_id", c.consumerId(), "consumer_version", c.consumerVersion(),
                "schema_id", c.schemaId(), "schema_version", c.schemaVersion(), "environment", c.environment(),
                "used_endpoints", of(c.usedEndpoints()));
        if (value instanceof ConsumerImpact i) return map("consumer_id", i.consumerId(), "consumer_version", i.consumerVersion(),
                "current_schema_version", i.currentSchemaVersion(), "environment", i.environment(),
                "will_break", i.willBreak(), "relevant_changes", of(i.relevantChanges()));
        if (value instanceof CanIDeployResult r) return map("safe_to_deploy", r.safeToDeploy(), "summary", r.summary(),
                "breaking_changes", of(r.breakingChanges()), "affected_consumers", of(r.affectedConsumers()));
        return value; // JSON values (generated bodies) are canonical already
    }

    private static Map<String, Object> map(Object... keysAndValues) {
        Map<String, Object> result = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) result.put((String) keysAndValues[i], keysAndValues[i + 1]);
        return result;
    }
}
