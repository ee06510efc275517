package dev.svc.client.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.client.AutoRegisterConfig;
import dev.svc.client.CapturedInteraction;
import dev.svc.client.ConsumerInfo;
import dev.svc.client.ContractValidator;
import dev.svc.client.capture.CaptureOptions;
import dev.svc.client.capture.CapturingHttpClient;
import dev.svc.client.support.Documents;
import dev.svc.client.support.SharedServer;
import dev.svc.client.support.UsersApp;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The consumer-test example of README.md, run as it is written there. */
class ConsumerContractExampleTest {
    private String svcAddress;
    private String schemaPath;
    private UsersApp provider;
    private String providerUrl;

    @BeforeEach
    void start() throws Exception {
        svcAddress = SharedServer.address();
        schemaPath = Documents.document("users-v1.yaml");
        provider = new UsersApp(null);
        providerUrl = provider.baseUrl();
    }

    @AfterEach
    void stop() throws Exception {
        provider.close();
    }

    // readme:start consumer-test
    /** The consumer's own code: a small client of the users API. */
    record UserClient(HttpClient http, String baseUrl) {
        String find(long id) throws IOException, InterruptedException {
            HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/users/" + id)).build();
            return http.send(request, HttpResponse.BodyHandlers.ofString()).body();
        }
    }

    @Test
    void userClientFollowsTheContract() throws Exception {
        try (ContractValidator validator = ContractValidator.builder().address(svcAddress).build()) {
            validator.registerSchemaWithVersion("users", schemaPath, "1.0.0");

            // Every exchange the client makes is recorded and validated against the contract.
            CapturingHttpClient http = CapturingHttpClient.wrap(HttpClient.newHttpClient(),
                    CaptureOptions.autoValidate(validator));
            new UserClient(http, providerUrl).find(42);

            for (CapturedInteraction interaction : http.interactions()) {
                assertTrue(interaction.validationResult().orElseThrow().valid(),
                        () -> interaction.validationResult().orElseThrow().errors().toString());
            }
            // Tell svc what this consumer relies on: GET /users/{id} and the fields it read.
            ConsumerInfo consumer = validator.registerConsumerFromInteractions(http.interactions(),
                    AutoRegisterConfig.of("web-frontend", "1.4.0").withEnvironment("staging"));
            assertEquals("/users/{id}", consumer.usedEndpoints().get(0).path());
        }
    }
    // readme:end consumer-test
}
