package dev.svc.client.internal;

import dev.svc.client.ConsumerRegistration;
import dev.svc.client.EndpointInfo;
import dev.svc.client.EndpointUsage;
import dev.svc.client.Interaction;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Captured interactions to a consumer registration: each interaction's real path is mapped to the
 * schema's path template, and the response fields seen are gathered per endpoint. Endpoints and fields
 * come out deduplicated and sorted, so the same traffic always gives the same registration.
 * Interactions that match no endpoint of the schema are left out.
 */
public final class ConsumerBuilder {
    public static final String DEFAULT_ENVIRONMENT = "dev";

    private ConsumerBuilder() {}

    /** Pure: the endpoints are the schema's (ListEndpoints), so this runs without a server. */
    public static ConsumerRegistration build(
            List<? extends Interaction> interactions,
            List<EndpointInfo> endpoints,
            String consumerId,
            String consumerVersion,
            String schemaId,
            String schemaVersion,
            String environment) {
        EndpointMatcher matcher = new EndpointMatcher(endpoints);
        // Keyed "path method" so that the natural order is by path, then method (code-point order).
        Map<String, Usage> usage = new TreeMap<>();
        for (Interaction interaction : interactions) {
            Optional<EndpointInfo> endpoint = matcher.match(interaction.request().method(), interaction.request().path());
            if (endpoint.isEmpty()) continue;
            String method = endpoint.get().method().toUpperCase(Locale.ROOT);
            String path = endpoint.get().path();
            Usage entry = usage.computeIfAbsent(path + "\u0000" + method, k -> new Usage(method, path, new TreeSet<>()));
            UsedFields.collect(interaction.response().body(), entry.fields());
        }
        List<EndpointUsage> usedEndpoints = new ArrayList<>();
        for (Usage entry : usage.values()) usedEndpoints.add(new EndpointUsage(entry.method(), entry.path(), List.copyOf(entry.fields())));
        usedEndpoints.sort(Comparator.comparing(EndpointUsage::path).thenComparing(EndpointUsage::method));
        String env = environment == null || environment.isEmpty() ? DEFAULT_ENVIRONMENT : environment;
        return new ConsumerRegistration(consumerId, consumerVersion, schemaId, schemaVersion, env, usedEndpoints);
    }

    private record Usage(String method, String path, Set<String> fields) {}
}
