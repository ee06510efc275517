package dev.svc.client.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.client.ContractValidator;
import dev.svc.client.servlet.ContractValidationFilter;
import dev.svc.client.servlet.ContractViolation;
import dev.svc.client.servlet.FilterStats;
import dev.svc.client.servlet.ValidationMode;
import dev.svc.client.support.Documents;
import dev.svc.client.support.SharedServer;
import dev.svc.client.support.UsersApp;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The filter example of README.md, run as it is written there. */
class FilterExampleTest {

    @Test
    void filterReportsAResponseThatBreaksTheContract() throws Exception {
        String svcAddress = SharedServer.address();
        try (ContractValidator setup = ContractValidator.builder().address(svcAddress).build()) {
            setup.registerSchemaWithVersion("users", Documents.document("users-v1.yaml"), "1.0.0");
        }
        List<ContractViolation> violations = new CopyOnWriteArrayList<>();

        // readme:start filter
        ContractValidator validator = ContractValidator.builder().address(svcAddress).build();
        ContractValidationFilter filter = ContractValidationFilter.builder(validator, "users")
                .mode(ValidationMode.WARN)          // shadow → warn → strict
                .includePaths("/users/**")
                .excludePaths("/users/*/avatar")
                .sampleRate(1.0)
                .onViolation(violations::add)
                .build();
        // Jetty: context.addFilter(new FilterHolder(filter), "/*", EnumSet.of(DispatcherType.REQUEST));
        // Spring Boot: return new FilterRegistrationBean<>(filter) from a @Bean method.
        // readme:end filter

        try (UsersApp app = new UsersApp(filter)) {
            HttpResponse<String> response = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create(app.baseUrl() + "/users/13")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), "warn mode lets the response through");
            assertTrue(filter.flush(Duration.ofSeconds(10)));
            FilterStats stats = filter.stats();
            assertEquals(1, stats.violations());
            assertTrue(violations.get(0).errors().get(0).contains("email"), violations.toString());
        } finally {
            filter.destroy();
            validator.close();
        }
    }
}
