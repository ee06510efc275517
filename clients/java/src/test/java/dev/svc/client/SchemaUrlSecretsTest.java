package dev.svc.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.svc.client.support.Ports;
import dev.svc.client.support.SharedServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A schema URL's user name, password and query values are often CI credentials: no error message names them. */
class SchemaUrlSecretsTest {
    private ContractValidator client;

    @BeforeEach
    void connect() {
        client = ContractValidator.builder().address(SharedServer.address()).build();
    }

    @AfterEach
    void close() {
        client.close();
    }

    @Test
    void anUnreachableUrlIsNamedWithoutItsSecrets() {
        int port = Ports.closedPort();
        String message = fetchError("http://ci:hunter2@127.0.0.1:" + port + "/openapi.yaml?token=abc123&v=2");
        assertTrue(message.contains("http://***@127.0.0.1:" + port + "/openapi.yaml?token=***&v=***"), message);
    }

    @Test
    void aUrlAnswering404IsNamedWithoutItsSecrets() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            exchange.sendResponseHeaders(404, -1);
            exchange.close();
        });
        server.start();
        try {
            String authority = "127.0.0.1:" + server.getAddress().getPort();
            String message = fetchError("http://ci:hunter2@" + authority + "/openapi.yaml?token=abc123");
            assertTrue(message.contains("http://***@" + authority + "/openapi.yaml?token=***: HTTP 404"), message);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void anInvalidUrlIsNotQuoted() {
        String message = fetchError("http://ci:hunter2@127.0.0.1:port/openapi.yaml?token=abc123");
        assertTrue(message.contains("cannot fetch schema from an http(s) URL that is not valid"), message);
    }

    private String fetchError(String url) {
        ContractValidatorException error = assertThrows(ContractValidatorException.class, () -> client.registerSchema("java-secret-url", url));
        assertEquals(ErrorCode.INVALID_ARGUMENT, error.code());
        String message = error.getMessage() + " / " + error.getCause();
        for (String secret : new String[] {"ci:", "hunter2", "abc123"}) assertFalse(message.contains(secret), message);
        return message;
    }
}
