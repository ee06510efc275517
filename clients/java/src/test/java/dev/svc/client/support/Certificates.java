package dev.svc.client.support;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Self-signed certificates for tests, made with the {@code openssl} command. */
public final class Certificates {
    /** A PEM certificate and its PKCS#8 key. */
    public record Pair(Path certificate, Path privateKey) {}

    private Certificates() {}

    /** A self-signed certificate for localhost and 127.0.0.1 (it is its own CA). */
    public static Pair selfSigned(Path folder, String name) throws IOException, InterruptedException {
        Path certificate = folder.resolve(name + ".pem");
        Path key = folder.resolve(name + "-key.pem");
        Process openssl = new ProcessBuilder("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                "-keyout", key.toString(), "-out", certificate.toString(),
                "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1")
                .redirectErrorStream(true).start();
        String output = new String(openssl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!openssl.waitFor(30, TimeUnit.SECONDS) || openssl.exitValue() != 0) throw new IOException("openssl failed: " + output);
        return new Pair(certificate, key);
    }
}
