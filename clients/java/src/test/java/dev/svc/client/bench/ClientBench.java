package dev.svc.client.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.client.ContractValidator;
import dev.svc.client.Interaction;
import dev.svc.client.ValidationRequest;
import dev.svc.client.ValidationResponse;
import dev.svc.client.ValidationResult;
import dev.svc.client.internal.Json;
import dev.svc.client.servlet.ContractValidationFilter;
import dev.svc.client.servlet.ValidationMode;
import dev.svc.client.support.Documents;
import dev.svc.client.support.SharedServer;
import dev.svc.client.support.UsersApp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The Java client's benchmark ({@code mvn -Pbench test}; not part of the default run). Each figure is
 * a ratio measured in one run against its baseline:
 * <ul>
 *   <li>the servlet filter's added latency: p50/p99 of the same servlet in Jetty without the filter and
 *       with it in shadow and warn mode, requests interleaved round-robin so drift hits all three alike;</li>
 *   <li>{@code validateMany} (one stream) against the same interactions validated one call at a time.</li>
 * </ul>
 * Results are printed and written to {@code target/bench.json}.
 */
@Tag("bench")
class ClientBench {
    private static final String SCHEMA = "bench-users";
    private static final int WARMUP_ROUNDS = 2_000;
    private static final int MEASURED_ROUNDS = 5_000;
    private static final int INTERACTIONS = 2_000;
    private static final Map<String, Object> report = new LinkedHashMap<>();
    private static ContractValidator validator;

    @BeforeAll
    static void registerSchema() {
        validator = ContractValidator.builder().address(SharedServer.address()).build();
        validator.registerSchemaWithVersion(SCHEMA, Documents.document("users-v1.yaml"), "1.0.0");
    }

    @AfterAll
    static void writeReport() throws Exception {
        validator.close();
        String json = Json.encode(report);
        System.out.println(json);
        Path out = Path.of(System.getProperty("basedir", ".")).resolve("target/bench.json");
        Files.createDirectories(out.getParent());
        Files.writeString(out, json + "\n");
    }

    @Test
    void filterAddedLatency() throws Exception {
        ContractValidationFilter shadow = ContractValidationFilter.builder(validator, SCHEMA).mode(ValidationMode.SHADOW).build();
        ContractValidationFilter warn = ContractValidationFilter.builder(validator, SCHEMA).mode(ValidationMode.WARN).build();
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try (UsersApp plain = new UsersApp(null); UsersApp shadowed = new UsersApp(shadow); UsersApp warned = new UsersApp(warn)) {
            List<UsersApp> apps = List.of(plain, shadowed, warned);
            List<HttpRequest> requests = apps.stream()
                    .map(app -> HttpRequest.newBuilder(URI.create(app.baseUrl() + "/users/42")).header("accept", "application/json").build())
                    .toList();
            long[][] nanos = new long[apps.size()][MEASURED_ROUNDS];
            for (int round = 0; round < WARMUP_ROUNDS + MEASURED_ROUNDS; round++) {
                for (int variant = 0; variant < apps.size(); variant++) {
                    long start = System.nanoTime();
                    HttpResponse<String> response = http.send(requests.get(variant), HttpResponse.BodyHandlers.ofString());
                    long elapsed = System.nanoTime() - start;
                    if (response.statusCode() != 200) throw new IllegalStateException("status " + response.statusCode());
                    if (round >= WARMUP_ROUNDS) nanos[variant][round - WARMUP_ROUNDS] = elapsed;
                }
            }
            assertTrue(shadow.flush(Duration.ofSeconds(30)) && warn.flush(Duration.ofSeconds(30)));
            Map<String, Object> figures = new LinkedHashMap<>();
            String[] names = {"no_filter", "shadow", "warn"};
            for (int variant = 0; variant < names.length; variant++) figures.put(names[variant], percentiles(nanos[variant]));
            double baseline = percentile(nanos[0], 50);
            figures.put("shadow_p50_ratio", round(percentile(nanos[1], 50) / baseline));
            figures.put("warn_p50_ratio", round(percentile(nanos[2], 50) / baseline));
            figures.put("shadow_stats", shadow.stats());
            figures.put("warn_stats", warn.stats());
            figures.put("requests_per_variant", MEASURED_ROUNDS);
            report.put("filter_latency", figures);
        } finally {
            shadow.destroy();
            warn.destroy();
        }
    }

    @Test
    void validateManyAgainstOneByOne() {
        List<Interaction> interactions = new ArrayList<>();
        for (int i = 0; i < INTERACTIONS; i++) {
            interactions.add(Interaction.of(ValidationRequest.of("GET", "/users/" + i),
                    ValidationResponse.of(200).withJsonBody(Map.of("id", i, "name", "Ada", "email", "ada@example.com"))));
        }
        // Warm both paths (JIT, connection, the server's compiled contract).
        validator.validateMany(interactions.subList(0, 200));
        for (Interaction interaction : interactions.subList(0, 200)) validator.validate(interaction.request(), interaction.response());

        long start = System.nanoTime();
        List<ValidationResult> streamed = validator.validateMany(interactions);
        double streamSeconds = (System.nanoTime() - start) / 1e9;
        start = System.nanoTime();
        int valid = 0;
        for (Interaction interaction : interactions) if (validator.validate(interaction.request(), interaction.response()).valid()) valid++;
        double unarySeconds = (System.nanoTime() - start) / 1e9;

        assertEquals(INTERACTIONS, valid);
        assertTrue(streamed.stream().allMatch(ValidationResult::valid));
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("interactions", INTERACTIONS);
        figures.put("validate_many_per_second", Math.round(INTERACTIONS / streamSeconds));
        figures.put("one_by_one_per_second", Math.round(INTERACTIONS / unarySeconds));
        figures.put("speedup", round(unarySeconds / streamSeconds));
        report.put("validate_many", figures);
    }

    private static Map<String, Object> percentiles(long[] nanos) {
        Map<String, Object> figures = new LinkedHashMap<>();
        figures.put("p50_us", round(percentile(nanos, 50) / 1e3));
        figures.put("p99_us", round(percentile(nanos, 99) / 1e3));
        return figures;
    }

    private static double percentile(long[] values, double percent) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int index = (int) Math.ceil(percent / 100 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
