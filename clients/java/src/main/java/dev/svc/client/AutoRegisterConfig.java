package dev.svc.client;

import java.util.Objects;

/**
 * How captured interactions become a consumer registration.
 *
 * @param environment null for {@code dev}
 * @param schemaVersion null for the version the client is bound to, else the latest registered one
 * @param schemaId null for the schema the client is bound to
 */
public record AutoRegisterConfig(String consumerId, String consumerVersion, String environment, String schemaVersion, String schemaId) {

    public AutoRegisterConfig {
        Objects.requireNonNull(consumerId, "consumerId");
        Objects.requireNonNull(consumerVersion, "consumerVersion");
    }

    public static AutoRegisterConfig of(String consumerId, String consumerVersion) {
        return new AutoRegisterConfig(consumerId, consumerVersion, null, null, null);
    }

    public AutoRegisterConfig withEnvironment(String value) {
        return new AutoRegisterConfig(consumerId, consumerVersion, value, schemaVersion, schemaId);
    }

    public AutoRegisterConfig withSchema(String id, String version) {
        return new AutoRegisterConfig(consumerId, consumerVersion, environment, version, id);
    }
}
