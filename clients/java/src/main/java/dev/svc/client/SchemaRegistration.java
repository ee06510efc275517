package dev.svc.client;

import java.util.List;

/** The answer of a registration; {@code breakingChanges} is filled when compatibility was checked. */
public record SchemaRegistration(String message, SchemaMetadata metadata, List<BreakingChange> breakingChanges) {
    public SchemaRegistration {
        breakingChanges = List.copyOf(breakingChanges);
    }
}
