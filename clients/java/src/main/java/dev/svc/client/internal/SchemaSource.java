package dev.svc.client.internal;

import dev.svc.client.ContractValidatorException;
import dev.svc.client.ErrorCode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.StringJoiner;

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
        if (isHttpUrl(source)) return fetch(source);
        Path file = source.toLowerCase(Locale.ROOT).startsWith("file:") ? Path.of(URI.create(source)) : Path.of(source);
        try {
            long size = Files.size(file);
            checkSize(source, size);
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw invalid("cannot read schema file \"" + file + "\": " + e.getMessage(), e);
        }
    }

    /**
     * A schema's location as messages name it: a URL without its user name, password and query values,
     * which often carry tokens ({@code https://ci:token@…}, {@code ?token=…}) that logs and CI output
     * would keep. Paths are named as given.
     */
    public static String shownLocation(String source) {
        if (!isHttpUrl(source)) return source;
        URI uri;
        try {
            uri = httpUri(source);
        } catch (URISyntaxException e) {
            return "an http(s) URL that is not valid";
        }
        StringBuilder shown = new StringBuilder(uri.getScheme()).append("://");
        String authority = uri.getRawAuthority();
        if (uri.getRawUserInfo() != null) {
            shown.append("***@");
            authority = authority.substring(authority.lastIndexOf('@') + 1);
        }
        if (authority != null) shown.append(authority);
        if (uri.getRawPath() != null) shown.append(uri.getRawPath());
        if (uri.getRawQuery() != null) {
            StringJoiner query = new StringJoiner("&", "?", "");
            for (String pair : uri.getRawQuery().split("&")) {
                if (!pair.isEmpty()) query.add(pair.split("=", 2)[0] + "=***");
            }
            shown.append(query);
        }
        if (uri.getRawFragment() != null) shown.append('#').append(uri.getRawFragment());
        return shown.toString();
    }

    private static boolean isHttpUrl(String source) {
        String lower = source.toLowerCase(Locale.ROOT);
        return lower.startsWith("http://") || lower.startsWith("https://");
    }

    /** Parses the authority as host and port: otherwise "user:secret@host:port" with a bad port passes as a registry name. */
    private static URI httpUri(String source) throws URISyntaxException {
        return new URI(source).parseServerAuthority();
    }

    private static String fetch(String source) {
        String shown = shownLocation(source);
        URI uri;
        try {
            uri = httpUri(source);
        } catch (URISyntaxException e) {
            // Not chained: its message repeats the whole source.
            throw invalid("cannot fetch schema from " + shown, null);
        }
        HttpClient client = HttpClient.newBuilder().connectTimeout(FETCH_TIMEOUT).followRedirects(HttpClient.Redirect.NORMAL).build();
        HttpRequest request;
        try {
            request = HttpRequest.newBuilder(uri).timeout(FETCH_TIMEOUT)
                    .header("accept", "application/json, application/yaml, text/yaml, */*").build();
        } catch (IllegalArgumentException e) {
            // Not chained: its message ("unsupported URI ...") repeats the whole URL.
            throw invalid("cannot fetch schema from " + shown + ": the HTTP client refuses this URL", null);
        }
        try {
            HttpResponse<InputStream> response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream body = response.body()) {
                if (response.statusCode() / 100 != 2) throw invalid("cannot fetch schema from " + shown + ": HTTP " + response.statusCode(), null);
                // Read chunk by chunk so that an endless or oversized download stops at the limit.
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                byte[] chunk = new byte[64 * 1024];
                for (int n; (n = body.read(chunk)) != -1; ) {
                    out.write(chunk, 0, n);
                    checkSize(shown, out.size());
                }
                return out.toString(StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            // The HTTP client's messages ("request timed out"; none for a refused connection) do not name
            // the URL; the replace keeps any that would from naming it in full.
            String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().replace(uri.toString(), shown);
            throw invalid("cannot fetch schema from " + shown + ": " + reason, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ContractValidatorException(ErrorCode.CANCELLED, "interrupted while fetching " + shown, e);
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
