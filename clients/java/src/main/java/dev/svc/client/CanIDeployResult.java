package dev.svc.client;

import java.util.List;

/** The deployment-safety answer: safe when no registered consumer will break. */
public record CanIDeployResult(boolean safeToDeploy, String summary, List<BreakingChange> breakingChanges, List<ConsumerImpact> affectedConsumers) {
    public CanIDeployResult {
        breakingChanges = List.copyOf(breakingChanges);
        affectedConsumers = List.copyOf(affectedConsumers);
    }
}
