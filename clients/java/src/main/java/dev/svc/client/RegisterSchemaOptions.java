package dev.svc.client;

/**
 * Options of a schema registration.
 *
 * @param version semantic version; null for the document's {@code info.version}
 * @param ownership null for none
 * @param checkCompatibility report breaking changes against the previous version (registered anyway)
 */
public record RegisterSchemaOptions(String version, SchemaOwnership ownership, boolean checkCompatibility) {
    public static final RegisterSchemaOptions DEFAULTS = new RegisterSchemaOptions(null, null, false);

    public RegisterSchemaOptions withVersion(String value) {
        return new RegisterSchemaOptions(value, ownership, checkCompatibility);
    }

    public RegisterSchemaOptions withOwnership(SchemaOwnership value) {
        return new RegisterSchemaOptions(version, value, checkCompatibility);
    }

    public RegisterSchemaOptions withCheckCompatibility(boolean value) {
        return new RegisterSchemaOptions(version, ownership, value);
    }
}
