package dev.svc.client;

import java.util.List;

/** What a new schema version does to one consumer: {@code willBreak} with the changes that matter to it. */
public record ConsumerImpact(
        String consumerId,
        String consumerVersion,
        String currentSchemaVersion,
        String environment,
        boolean willBreak,
        List<BreakingChange> relevantChanges) {

    public ConsumerImpact {
        relevantChanges = List.copyOf(relevantChanges);
    }
}
