package dev.svc.client.servlet;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.SequenceInputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A request whose body was read ahead (up to the limit) so it can be validated, and is replayed to the
 * servlet: the bytes read first, then whatever the client still sends. Form and multipart bodies are
 * never read ahead (the container parses those itself), and count as not captured.
 */
final class CapturingRequest extends HttpServletRequestWrapper {
    private final byte[] head;
    private final boolean complete;
    private final InputStream replay;
    private ServletInputStream stream;
    private BufferedReader reader;
    private ServletResponse response;

    private CapturingRequest(HttpServletRequest request, byte[] head, boolean complete, InputStream rest) {
        super(request);
        this.head = head;
        this.complete = complete;
        this.replay = rest == null ? new ByteArrayInputStream(head) : new SequenceInputStream(new ByteArrayInputStream(head), rest);
    }

    /** Wraps {@code request}, reading up to {@code maxBytes} of its body ahead. */
    static CapturingRequest capture(HttpServletRequest request, int maxBytes) throws IOException {
        if (!hasBody(request)) return new CapturingRequest(request, new byte[0], true, null);
        if (isForm(request.getContentType())) return new CapturingRequest(request, new byte[0], false, request.getInputStream());
        ServletInputStream input = request.getInputStream();
        byte[] head = input.readNBytes(maxBytes + 1);
        if (head.length <= maxBytes) return new CapturingRequest(request, head, true, null);
        return new CapturingRequest(request, head, false, input);
    }

    /** The response wrapper that asynchronous processing must write through. */
    void pairWith(ServletResponse capturingResponse) {
        this.response = capturingResponse;
    }

    /**
     * {@code startAsync()} would hand the servlet the original, unwrapped response, whose body the filter
     * would never see; the asynchronous context gets the wrappers instead.
     */
    @Override
    public AsyncContext startAsync() {
        return response == null ? super.startAsync() : super.startAsync(this, response);
    }

    /** The body as text, or null when it was not captured completely. */
    String bodyText() {
        return complete ? new String(head, charset()) : null;
    }

    boolean bodyCaptured() {
        return complete;
    }

    @Override
    public ServletInputStream getInputStream() {
        if (reader != null) throw new IllegalStateException("getReader() was already called");
        if (stream == null) stream = new ReplayStream();
        return stream;
    }

    @Override
    public BufferedReader getReader() {
        if (stream != null) throw new IllegalStateException("getInputStream() was already called");
        if (reader == null) reader = new BufferedReader(new InputStreamReader(replay, charset()));
        return reader;
    }

    private Charset charset() {
        String encoding = getCharacterEncoding();
        try {
            return encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
        } catch (IllegalArgumentException e) {
            return StandardCharsets.UTF_8;
        }
    }

    private static boolean hasBody(HttpServletRequest request) {
        return request.getContentLengthLong() > 0 || request.getHeader("transfer-encoding") != null;
    }

    private static boolean isForm(String contentType) {
        if (contentType == null) return false;
        String type = contentType.toLowerCase(Locale.ROOT);
        return type.startsWith("application/x-www-form-urlencoded") || type.startsWith("multipart/");
    }

    private final class ReplayStream extends ServletInputStream {
        private boolean finished;

        @Override
        public int read() throws IOException {
            int b = replay.read();
            if (b < 0) finished = true;
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = replay.read(buffer, offset, length);
            if (n < 0) finished = true;
            return n;
        }

        @Override
        public boolean isFinished() {
            return finished;
        }

        @Override
        public boolean isReady() {
            return true;
        }

        /** Non-blocking reads: the body is in memory, so all of it is available at once. */
        @Override
        public void setReadListener(ReadListener listener) {
            if (!complete) throw new IllegalStateException("non-blocking reads of a body over the capture limit are not supported");
            try {
                listener.onDataAvailable();
                listener.onAllDataRead();
            } catch (IOException e) {
                listener.onError(e);
            }
        }
    }
}
