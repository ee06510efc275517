package dev.svc.client;

/** Who owns a schema; {@code readOnly} schemas refuse updates. */
public record SchemaOwnership(String owner, String team, String contactEmail, boolean readOnly) {
    public static SchemaOwnership of(String owner, String team) {
        return new SchemaOwnership(owner, team, "", false);
    }
}
