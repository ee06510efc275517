package dev.svc.client;

import java.util.List;

/** Breaking changes between two versions; {@code compatible} when there are none. */
public record CompareResult(boolean compatible, List<BreakingChange> breakingChanges, SchemaMetadata oldSchema, SchemaMetadata newSchema) {
    public CompareResult {
        breakingChanges = List.copyOf(breakingChanges);
    }
}
