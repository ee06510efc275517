package dev.svc.client.internal;

import dev.svc.client.ContractValidatorException;
import dev.svc.client.ErrorCode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Reads an OpenAPI document (JSON or YAML text) from a file path, a {@code file:} URL or an http(s)
 * URL. The text is sent as it is: the server parses it, and the registered hash is the hash of these bytes.
 */
public final class SchemaSource {
    /** The server refuses larger content anyway; failing here saves the upload. */
    public static final long MAX_SCHEMA_BYTES = 32L * 1024 * 1024; // 32 MiB, the server's maxSchemaBytes
    public static final Duration FETCH_TIMEOUT = Duration.ofSeconds(30);

    private SchemaSource() {}

    public static String read(String source) {
        if (source == null || source.isEmpty()) throw invalid("schemaPath must be a file path or an http(s) URL", null);
        String lower = source.toLowerCase(java.util.Locale.ROOT);
        if (lower.startsWith("http://") || lower.startsWith("https://")) return fetch(URI.create(source));
        Path file = lower.startsWith("file:") ? Path.of(URI.create(source)) : Path.of(source);
        try {
            long size = Files.size(file);
            checkSize(source, size);
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw invalid("cannot read schema file \"" + file + "\": " + e.getMessage(), e);
        }
    }

    private static String fetch(URI uri) {
        HttpClient client = HttpClient.newBuilder().connectTimeout(FETCH_TIMEOUT).followRedirects(HttpClient.Redirect.NORMAL).build();
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(FETCH_TIMEOUT)
                .header("accept", "application/json, application/yaml, text/yaml, */*").build();
        try {
            HttpResponse<InputStream> response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream body = response.body()) {
                if (response.statusCode() / 100 != 2) throw invalid("cannot fetch schema from " + uri + ": HTTP " + response.statusCode(), null);
                // Read chunk by chunk so that an endless or oversized download stops at the limit.
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                byte[] chunk = new byte[64 * 1024];
                for (int n; (n = body.read(chunk)) != -1; ) {
                    out.write(chunk, 0, n);
                    checkSize(uri.toString(), out.size());
                }
                return out.toString(StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw invalid("cannot fetch schema from " + uri + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ContractValidatorException(ErrorCode.CANCELLED, "interrupted while fetching " + uri, e);
        }
    }

    private static void checkSize(String source, long bytes) {
        if (bytes > MAX_SCHEMA_BYTES) {
            throw invalid("schema " + source + " is " + bytes + " bytes, over the " + MAX_SCHEMA_BYTES + " byte limit (MAX_SCHEMA_BYTES)", null);
        }
    }

    private static ContractValidatorException invalid(String message, Throwable cause) {
        return new ContractValidatorException(ErrorCode.INVALID_ARGUMENT, message, cause);
    }
}
