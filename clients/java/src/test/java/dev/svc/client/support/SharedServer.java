package dev.svc.client.support;

import dev.svc.client.ContractValidator;
import dev.svc.client.RegisterSchemaOptions;
import java.io.IOException;
import java.io.UncheckedIOException;

/** The one plain svc server the whole test run shares, started on first use and stopped at JVM exit. */
public final class SharedServer {
    private static SvcServer server;

    private SharedServer() {}

    public static synchronized SvcServer get() {
        if (server == null) {
            try {
                server = SvcServer.start();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            SvcServer started = server;
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "svc-server-stop"));
        }
        return server;
    }

    public static String address() {
        return get().address();
    }

    /** A validator of the shared server with {@code documentName} (under the conformance documents) registered as {@code schemaId} 1.0.0. */
    public static ContractValidator validatorWith(String schemaId, String documentName) {
        ContractValidator validator = ContractValidator.builder().address(address()).build();
        validator.registerSchemaWithVersion(schemaId, Documents.document(documentName), "1.0.0");
        return validator;
    }

    /** A validator of the shared server with the document {@code content} registered as {@code schemaId} 1.0.0. */
    public static ContractValidator validatorWithContent(String schemaId, String content) {
        ContractValidator validator = ContractValidator.builder().address(address()).build();
        validator.registerSchemaContent(schemaId, content, RegisterSchemaOptions.DEFAULTS.withVersion("1.0.0"));
        return validator;
    }
}
