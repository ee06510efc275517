package dev.svc.client.support;

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
}
