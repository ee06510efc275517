package dev.svc.client;

/**
 * What the service records about a registered schema version. Timestamps are Unix seconds.
 *
 * @param schemaHash SHA-256 of the registered content
 * @param ownership null when the schema has none
 * @param openapiVersion detected OpenAPI version (a v2 document reports 3.0.0, its converted form)
 */
public record SchemaMetadata(
        String schemaId,
        String schemaVersion,
        String schemaHash,
        long registeredAt,
        long updatedAt,
        SchemaOwnership ownership,
        String openapiVersion,
        int endpointCount) {}
