package dev.svc.client;

import static dev.svc.client.support.Documents.document;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.svc.client.support.Certificates;
import dev.svc.client.support.SvcServer;
import dev.svc.client.testkit.ProducerTestKit;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TLS, mutual TLS and API keys against real servers configured for them. */
class SecurityTest {
    private static final String KEY = "java-secret-key";

    @TempDir
    static Path folder;
    private static Certificates.Pair serverCertificate;
    private static Certificates.Pair clientCertificate;
    private static SvcServer tlsWithKeys;
    private static SvcServer mutualTls;

    @BeforeAll
    static void startServers() throws Exception {
        serverCertificate = Certificates.selfSigned(folder, "server");
        clientCertificate = Certificates.selfSigned(folder, "client");
        SvcServer.Options tls = SvcServer.Options.tls(serverCertificate.certificate(), serverCertificate.privateKey());
        tlsWithKeys = SvcServer.start(tls.withApiKeys(List.of(KEY, "another-key")));
        mutualTls = SvcServer.start(tls.withClientCa(clientCertificate.certificate()));
    }

    @AfterAll
    static void stopServers() {
        if (tlsWithKeys != null) tlsWithKeys.close();
        if (mutualTls != null) mutualTls.close();
    }

    private static ContractValidator.Builder client(SvcServer server) {
        return ContractValidator.builder().address(server.address()).deadline(Duration.ofSeconds(10));
    }

    @Test
    void tlsWithTheServersCaAndAValidKey() {
        try (ContractValidator client = client(tlsWithKeys).tls(TlsConfig.trusting(serverCertificate.certificate())).apiKey(KEY).build()) {
            client.registerSchemaWithVersion("java-tls", document("users-v1.yaml"), "1.0.0");
            assertEquals(5, client.listEndpoints().size());
        }
    }

    @Test
    void aServerNameOverrideIsCheckedAgainstTheCertificate() {
        String address = "localhost:" + tlsWithKeys.port();
        TlsConfig tls = TlsConfig.trusting(serverCertificate.certificate()).withServerNameOverride("localhost");
        try (ContractValidator client = ContractValidator.builder().address(address).tls(tls).apiKey(KEY).build()) {
            assertTrue(client.listSchemas(0, null, null, null).totalCount() >= 0);
        }
    }

    @Test
    void aMissingOrWrongKeyIsUnauthenticated() {
        TlsConfig tls = TlsConfig.trusting(serverCertificate.certificate());
        try (ContractValidator missing = client(tlsWithKeys).tls(tls).build();
             ContractValidator wrong = client(tlsWithKeys).tls(tls).apiKey("not-the-key").build()) {
            assertEquals(ErrorCode.UNAUTHENTICATED, assertThrows(ContractValidatorException.class, () -> missing.listConsumers("x")).code());
            assertEquals(ErrorCode.UNAUTHENTICATED, assertThrows(ContractValidatorException.class, () -> wrong.listConsumers("x")).code());
        }
    }

    @Test
    void anUntrustedCertificateOrPlaintextIsUnavailable() {
        try (ContractValidator systemRoots = client(tlsWithKeys).tls(TlsConfig.systemRoots()).apiKey(KEY).build();
             ContractValidator plaintext = client(tlsWithKeys).apiKey(KEY).build()) {
            assertEquals(ErrorCode.UNAVAILABLE, assertThrows(ContractValidatorException.class, () -> systemRoots.listConsumers("x")).code());
            assertEquals(ErrorCode.UNAVAILABLE, assertThrows(ContractValidatorException.class, () -> plaintext.listConsumers("x")).code());
        }
    }

    @Test
    void mutualTlsNeedsTheClientCertificate() {
        TlsConfig tls = TlsConfig.trusting(serverCertificate.certificate());
        try (ContractValidator withCertificate = client(mutualTls).tls(tls.withClientCertificate(clientCertificate.certificate(), clientCertificate.privateKey())).build();
             ContractValidator without = client(mutualTls).tls(tls).build()) {
            assertTrue(withCertificate.listSchemas(0, null, null, null).schemas().isEmpty());
            assertEquals(ErrorCode.UNAVAILABLE, assertThrows(ContractValidatorException.class, () -> without.listConsumers("x")).code());
        }
    }

    @Test
    void theProducerTestKitUsesTlsAndTheKeyToo() {
        try (ContractValidator client = client(tlsWithKeys).tls(TlsConfig.trusting(serverCertificate.certificate())).apiKey(KEY).build()) {
            client.registerSchemaWithVersion("java-tls-kit", document("users-v1.yaml"), "1.0.0");
        }
        try (ProducerTestKit kit = ProducerTestKit.builder("java-tls-kit").serverAddress(tlsWithKeys.address())
                .tls(TlsConfig.trusting(serverCertificate.certificate())).apiKey(KEY).build()) {
            assertTrue(kit.validateResponse("GET", "/health", 200, "{\"status\":\"ok\"}", Map.of()).valid());
        }
    }
}
