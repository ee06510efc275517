package dev.svc.client.capture;

import dev.svc.client.CapturedInteraction;
import dev.svc.client.ValidationRequest;
import dev.svc.client.ValidationResponse;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import okhttp3.Interceptor;
import okhttp3.MediaType;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.Buffer;

/**
 * An OkHttp {@link Interceptor} that records every exchange of the client it is added to
 * ({@code new OkHttpClient.Builder().addInterceptor(capture)}). The response body is peeked (up to the
 * limit), so the caller still reads it as usual; one-shot and duplex request bodies are sent without
 * being recorded. With {@code autoValidate}, the exchange is validated before the response is handed back.
 */
public final class OkHttpCapture implements Interceptor {
    private final InteractionRecorder recorder;

    public OkHttpCapture(CaptureOptions options) {
        this.recorder = new InteractionRecorder(options);
    }

    /** A copy of the interactions captured so far, oldest first. */
    public List<CapturedInteraction> interactions() {
        return recorder.interactions();
    }

    public void clearInteractions() {
        recorder.clear();
    }

    @Override
    public Response intercept(Chain chain) throws IOException {
        Request request = chain.request();
        String requestBody = requestBody(request.body());
        Response response = chain.proceed(request);
        String responseBody = responseBody(response);
        String path = request.url().encodedPath() + (request.url().encodedQuery() == null ? "" : "?" + request.url().encodedQuery());
        Map<String, String> requestHeaders = headers(request.headers().toMultimap());
        if (request.body() != null && request.body().contentType() != null) {
            requestHeaders.putIfAbsent("content-type", request.body().contentType().toString());
        }
        recorder.record(new CapturedInteraction(
                new ValidationRequest(request.method(), path, requestHeaders, requestBody),
                new ValidationResponse(response.code(), headers(response.headers().toMultimap()), responseBody),
                null));
        return response;
    }

    private String requestBody(RequestBody body) throws IOException {
        if (body == null || body.isOneShot() || body.isDuplex()) return "";
        long length = body.contentLength();
        MediaType type = body.contentType();
        if (length < 0 || length > recorder.options().maxBodyBytes()
                || !InteractionRecorder.isCapturableContentType(type == null ? null : type.toString())) return "";
        Buffer buffer = new Buffer();
        body.writeTo(buffer);
        return buffer.readUtf8();
    }

    private String responseBody(Response response) throws IOException {
        ResponseBody body = response.body();
        if (body == null) return "";
        MediaType type = body.contentType();
        if (!InteractionRecorder.isCapturableContentType(type == null ? null : type.toString())) return "";
        long limit = recorder.options().maxBodyBytes();
        if (body.contentLength() > limit) return "";
        // peekBody reads up to limit + 1 bytes ahead without consuming them for the caller.
        ResponseBody peeked = response.peekBody(limit + 1);
        if (peeked.contentLength() > limit) return "";
        return peeked.string();
    }

    private static Map<String, String> headers(Map<String, List<String>> multimap) {
        Map<String, String> headers = new TreeMap<>();
        multimap.forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), String.join(", ", values)));
        return headers;
    }
}
