package dev.svc.client.support;

import dev.svc.client.internal.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A real svc server process on a free loopback port: {@code node <repo>/bin/svc.js serve}, or the
 * {@code bin/svc.js} named by the environment variable {@code SVC_BIN}. The bound port is read from the
 * JSON log line whose {@code msg} is {@code svc server listening}.
 */
public final class SvcServer implements AutoCloseable {
    public static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final String LISTENING = "svc server listening";

    private final Process process;
    private final int port;
    private final StringBuilder log = new StringBuilder();

    /**
     * Options of a server: API keys enable key authentication; a certificate and key enable TLS; a
     * client CA makes it mutual TLS.
     */
    public record Options(List<String> apiKeys, Path certificate, Path privateKey, Path clientCa) {
        public static final Options PLAIN = new Options(List.of(), null, null, null);

        public static Options apiKeys(List<String> keys) {
            return new Options(keys, null, null, null);
        }

        public static Options tls(Path certificate, Path privateKey) {
            return new Options(List.of(), certificate, privateKey, null);
        }

        public Options withApiKeys(List<String> keys) {
            return new Options(keys, certificate, privateKey, clientCa);
        }

        public Options withClientCa(Path ca) {
            return new Options(apiKeys, certificate, privateKey, ca);
        }
    }

    private SvcServer(Options options) throws IOException {
        List<String> command = new ArrayList<>(List.of("node", svcBin().toString(), "serve",
                "--host", "127.0.0.1", "--port", "0", "--metrics-port", "0", "--storage", "memory"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("LOG_LEVEL", "info");
        if (!options.apiKeys().isEmpty()) {
            command.add("--api-key-auth");
            builder.environment().put("SVC_API_KEYS", String.join(",", options.apiKeys()));
        }
        if (options.certificate() != null) {
            command.addAll(List.of("--tls", "--cert", options.certificate().toString(), "--key", options.privateKey().toString()));
        }
        if (options.clientCa() != null) command.addAll(List.of("--client-ca", options.clientCa().toString()));
        builder.command(command);
        process = builder.start();
        port = awaitPort();
    }

    public static SvcServer start() throws IOException {
        return new SvcServer(Options.PLAIN);
    }

    public static SvcServer start(Options options) throws IOException {
        return new SvcServer(options);
    }

    /** {@code bin/svc.js} of this repository (two folders up from this package), unless SVC_BIN names another. */
    public static Path svcBin() {
        String override = System.getenv("SVC_BIN");
        if (override != null && !override.isEmpty()) return Path.of(override).toAbsolutePath();
        Path base = Path.of(System.getProperty("basedir", ".")).toAbsolutePath();
        return base.resolve("../../bin/svc.js").normalize();
    }

    public int port() {
        return port;
    }

    public String address() {
        return "127.0.0.1:" + port;
    }

    private int awaitPort() throws IOException {
        CompletableFuture<Integer> bound = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = lines.readLine()) != null; ) {
                    synchronized (log) {
                        if (log.length() < 64 * 1024) log.append(line).append('\n');
                    }
                    if (!bound.isDone() && line.contains(LISTENING) && Json.parseOrText(line) instanceof Map<?, ?> entry
                            && LISTENING.equals(entry.get("msg")) && entry.get("port") instanceof Number number) {
                        bound.complete(number.intValue());
                    }
                }
            } catch (IOException ignored) {
                // the process ended; reported below
            }
            bound.completeExceptionally(new IOException("svc server exited before listening"));
        }, "svc-server-log");
        reader.setDaemon(true);
        reader.start();
        try {
            return bound.get(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            close();
            synchronized (log) {
                throw new IOException("svc server did not start (" + svcBin() + ", exists: " + Files.exists(svcBin()) + "):\n" + log, e);
            }
        }
    }

    @Override
    public void close() {
        if (!process.isAlive()) return;
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
