package dev.svc.client;

import java.util.List;

/** A consumer registration as the service keeps it. Timestamps are Unix seconds. */
public record ConsumerInfo(
        String consumerId,
        String consumerVersion,
        String schemaId,
        String schemaVersion,
        String environment,
        long registeredAt,
        long lastValidatedAt,
        List<EndpointUsage> usedEndpoints) {

    public ConsumerInfo {
        usedEndpoints = List.copyOf(usedEndpoints);
    }
}
