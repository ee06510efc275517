package dev.svc.client;

/**
 * One breaking change between two schema versions.
 *
 * @param path API path template ({@code /users/{id}}); empty when the change is not tied to a path
 * @param method HTTP method; may be empty
 */
public record BreakingChange(BreakingChangeType type, String path, String method, String description, String oldValue, String newValue) {}
