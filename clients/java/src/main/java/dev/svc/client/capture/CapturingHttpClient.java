package dev.svc.client.capture;

import dev.svc.client.CapturedInteraction;
import dev.svc.client.ValidationRequest;
import dev.svc.client.ValidationResponse;
import dev.svc.client.internal.Headers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.Flow;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * A {@link HttpClient} that records every exchange it makes through another one: hand it to the code
 * under test in place of the client it would build. The response body is copied as the caller's body
 * handler receives it, so any handler works (string, bytes, stream, file). Request bodies are recorded
 * when their publisher has a known length within the limit (strings, byte arrays, files).
 *
 * <p>With {@code autoValidate}, an exchange whose body the handler has fully received when
 * {@code send} returns is validated before {@code send} returns; one streamed to the caller (an
 * {@code ofInputStream} handler) is recorded and validated once the caller has read it to the end.
 */
public final class CapturingHttpClient extends HttpClient {
    private final HttpClient delegate;
    private final InteractionRecorder recorder;

    private CapturingHttpClient(HttpClient delegate, CaptureOptions options) {
        this.delegate = delegate;
        this.recorder = new InteractionRecorder(options);
    }

    public static CapturingHttpClient wrap(HttpClient delegate, CaptureOptions options) {
        return new CapturingHttpClient(delegate, options);
    }

    /** A copy of the interactions captured so far, oldest first. */
    public List<CapturedInteraction> interactions() {
        return recorder.interactions();
    }

    public void clearInteractions() {
        recorder.clear();
    }

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) throws IOException, InterruptedException {
        String requestBody = requestBody(request);
        Tee tee = new Tee(recorder.options().maxBodyBytes());
        HttpResponse<T> response = delegate.send(request, tee.wrap(handler));
        recordWhenRead(request, requestBody, response, tee);
        return response;
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        return sendAsync(request, handler, null);
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler,
                                                            HttpResponse.PushPromiseHandler<T> pushPromiseHandler) {
        String requestBody = requestBody(request);
        Tee tee = new Tee(recorder.options().maxBodyBytes());
        return delegate.sendAsync(request, tee.wrap(handler), pushPromiseHandler).thenApply(response -> {
            recordWhenRead(request, requestBody, response, tee);
            return response;
        });
    }

    private void recordWhenRead(HttpRequest request, String requestBody, HttpResponse<?> response, Tee tee) {
        if (tee.body.isDone()) {
            recorder.record(interaction(request, requestBody, response, tee.body.join()));
            return;
        }
        // Streamed to the caller: recorded once the caller has read it to the end. A validator failure
        // here has no caller to reach; it stays on the future, and the interaction unrecorded.
        tee.body.thenAccept(body -> recorder.record(interaction(request, requestBody, response, body)));
    }

    private static CapturedInteraction interaction(HttpRequest request, String requestBody, HttpResponse<?> response, Optional<String> body) {
        URI uri = request.uri();
        String path = (uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath())
                + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        ValidationRequest validationRequest = new ValidationRequest(request.method(), path,
                Headers.fromMultiValued(request.headers().map()), requestBody == null ? "" : requestBody);
        HttpHeaders headers = response.headers();
        ValidationResponse validationResponse = new ValidationResponse(response.statusCode(),
                Headers.fromMultiValued(headers.map()), body.orElse(""));
        return new CapturedInteraction(validationRequest, validationResponse, null);
    }

    /** The request body when its publisher is replayable with a known length within the limit, else null. */
    private String requestBody(HttpRequest request) {
        Optional<HttpRequest.BodyPublisher> publisher = request.bodyPublisher();
        if (publisher.isEmpty()) return null;
        long length = publisher.get().contentLength();
        if (length <= 0 || length > recorder.options().maxBodyBytes()) return null;
        String contentType = request.headers().firstValue("content-type").orElse(null);
        if (!InteractionRecorder.isCapturableContentType(contentType)) return null;
        CompletableFuture<Optional<String>> collected = new CompletableFuture<>();
        publisher.get().subscribe(new Collector(recorder.options().maxBodyBytes(), collected));
        // Publishers with a known length (strings, bytes, files) deliver synchronously on request().
        return collected.getNow(Optional.empty()).orElse(null);
    }

    /** Copies what a body subscriber receives, up to the limit, into {@code body}. */
    private static final class Tee {
        private final int maxBytes;
        final CompletableFuture<Optional<String>> body = new CompletableFuture<>();

        Tee(int maxBytes) {
            this.maxBytes = maxBytes;
        }

        <T> HttpResponse.BodyHandler<T> wrap(HttpResponse.BodyHandler<T> handler) {
            return info -> {
                HttpResponse.BodySubscriber<T> downstream = handler.apply(info);
                String contentType = info.headers().firstValue("content-type").orElse(null);
                if (!InteractionRecorder.isCapturableContentType(contentType)) {
                    body.complete(Optional.empty());
                    return downstream;
                }
                return new TeeSubscriber<>(downstream, new Collector(maxBytes, body));
            };
        }
    }

    private record TeeSubscriber<T>(HttpResponse.BodySubscriber<T> downstream, Collector copy) implements HttpResponse.BodySubscriber<T> {
        @Override
        public CompletionStage<T> getBody() {
            return downstream.getBody();
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            copy.onSubscribe(null);
            downstream.onSubscribe(subscription);
        }

        @Override
        public void onNext(List<ByteBuffer> item) {
            copy.onNext(item);
            downstream.onNext(item);
        }

        @Override
        public void onError(Throwable throwable) {
            copy.onError(throwable);
            downstream.onError(throwable);
        }

        @Override
        public void onComplete() {
            copy.onComplete();
            downstream.onComplete();
        }
    }

    /**
     * Collects byte buffers (read through duplicates, so the downstream sees them untouched) up to a
     * limit; completes with the text, or empty when over the limit or failed. With a subscription of
     * its own (a request body publisher) it requests everything.
     */
    private static final class Collector implements Flow.Subscriber<ByteBuffer> {
        private final int maxBytes;
        private final CompletableFuture<Optional<String>> result;
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private boolean overflowed;

        Collector(int maxBytes, CompletableFuture<Optional<String>> result) {
            this.maxBytes = maxBytes;
            this.result = result;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            if (subscription != null) subscription.request(Long.MAX_VALUE);
        }

        void onNext(List<ByteBuffer> buffers) {
            for (ByteBuffer buffer : buffers) onNext(buffer);
        }

        @Override
        public synchronized void onNext(ByteBuffer buffer) {
            if (overflowed) return;
            ByteBuffer view = buffer.duplicate();
            if (bytes.size() + view.remaining() > maxBytes) {
                overflowed = true;
                return;
            }
            byte[] chunk = new byte[view.remaining()];
            view.get(chunk);
            bytes.writeBytes(chunk);
        }

        @Override
        public void onError(Throwable throwable) {
            result.complete(Optional.empty());
        }

        @Override
        public synchronized void onComplete() {
            result.complete(overflowed ? Optional.empty() : Optional.of(bytes.toString(StandardCharsets.UTF_8)));
        }

    }

    // ---- Everything else is the wrapped client's --------------------------------------------------

    @Override
    public Optional<CookieHandler> cookieHandler() {
        return delegate.cookieHandler();
    }

    @Override
    public Optional<Duration> connectTimeout() {
        return delegate.connectTimeout();
    }

    @Override
    public Redirect followRedirects() {
        return delegate.followRedirects();
    }

    @Override
    public Optional<ProxySelector> proxy() {
        return delegate.proxy();
    }

    @Override
    public SSLContext sslContext() {
        return delegate.sslContext();
    }

    @Override
    public SSLParameters sslParameters() {
        return delegate.sslParameters();
    }

    @Override
    public Optional<Authenticator> authenticator() {
        return delegate.authenticator();
    }

    @Override
    public Version version() {
        return delegate.version();
    }

    @Override
    public Optional<Executor> executor() {
        return delegate.executor();
    }
}
