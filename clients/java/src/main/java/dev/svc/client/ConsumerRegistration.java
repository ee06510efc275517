package dev.svc.client;

import java.util.List;
import java.util.Objects;

/**
 * What {@code registerConsumer} sends: the key {@code consumerId/schemaId/environment}, the versions,
 * and the endpoints used.
 *
 * @param environment null or empty for the service's default, {@code dev}
 */
public record ConsumerRegistration(
        String consumerId,
        String consumerVersion,
        String schemaId,
        String schemaVersion,
        String environment,
        List<EndpointUsage> usedEndpoints) {

    public ConsumerRegistration {
        Objects.requireNonNull(consumerId, "consumerId");
        Objects.requireNonNull(schemaId, "schemaId");
        consumerVersion = consumerVersion == null ? "" : consumerVersion;
        schemaVersion = schemaVersion == null ? "" : schemaVersion;
        environment = environment == null ? "" : environment;
        usedEndpoints = usedEndpoints == null ? List.of() : List.copyOf(usedEndpoints);
    }
}
