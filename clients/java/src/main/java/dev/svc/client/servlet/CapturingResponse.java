package dev.svc.client.servlet;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A response that copies what the servlet writes (up to the limit) while passing every write and
 * flush straight through: nothing is held back, so streamed responses stream as before. Event
 * streams are passed through without being copied. What the container discards (resetBuffer,
 * reset) is dropped from the copy too.
 */
final class CapturingResponse extends HttpServletResponseWrapper {
    private final BodyCapture capture;
    private ServletOutputStream stream;
    private PrintWriter writer;

    CapturingResponse(HttpServletResponse response, int maxBytes) {
        super(response);
        this.capture = new BodyCapture(maxBytes);
    }

    @Override
    public ServletOutputStream getOutputStream() throws IOException {
        if (stream == null) {
            ServletOutputStream target = super.getOutputStream();
            stream = new TeeStream(target);
        }
        return stream;
    }

    @Override
    public PrintWriter getWriter() throws IOException {
        if (writer == null) writer = new PrintWriter(new TeeWriter(super.getWriter()));
        return writer;
    }

    /**
     * The container discards its buffer (or throws when the response is committed, before the
     * capture is touched): what was written so far never reaches the client, so it leaves the copy
     * too. Error handlers do this after a partial write.
     */
    @Override
    public void resetBuffer() {
        super.resetBuffer();
        capture.clear();
    }

    /** As {@link #resetBuffer()}, with the status and headers; which of stream or writer was taken is forgotten too. */
    @Override
    public void reset() {
        super.reset();
        capture.clear();
        stream = null;
        writer = null;
    }

    /**
     * The container discards the buffer and writes its own error page, past this wrapper: the copy
     * cannot be what the client gets, so the exchange is not validated (counted as skipped).
     */
    @Override
    public void sendError(int status, String message) throws IOException {
        super.sendError(status, message);
        capture.markIncomplete();
    }

    @Override
    public void sendError(int status) throws IOException {
        super.sendError(status);
        capture.markIncomplete();
    }

    boolean bodyCaptured() {
        return capture.complete();
    }

    String bodyText() {
        String encoding = getCharacterEncoding();
        Charset charset;
        try {
            charset = encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
        } catch (IllegalArgumentException e) {
            charset = StandardCharsets.UTF_8;
        }
        return capture.text(charset);
    }

    Map<String, String> headers() {
        Map<String, String> headers = new TreeMap<>();
        for (String name : getHeaderNames()) headers.put(name.toLowerCase(Locale.ROOT), String.join(", ", getHeaders(name)));
        String contentType = getContentType();
        if (contentType != null) headers.putIfAbsent("content-type", contentType);
        return headers;
    }

    /** Whether to copy at all: not for event streams, which may never end. */
    private boolean copying() {
        String contentType = getContentType();
        if (contentType != null && contentType.toLowerCase(Locale.ROOT).startsWith("text/event-stream")) {
            capture.markIncomplete();
            return false;
        }
        return capture.complete();
    }

    private final class TeeStream extends ServletOutputStream {
        private final ServletOutputStream target;

        TeeStream(ServletOutputStream target) {
            this.target = target;
        }

        @Override
        public void write(int b) throws IOException {
            target.write(b);
            if (copying()) capture.write(b);
        }

        @Override
        public void write(byte[] buffer, int offset, int length) throws IOException {
            target.write(buffer, offset, length);
            if (copying()) capture.write(buffer, offset, length);
        }

        @Override
        public void flush() throws IOException {
            target.flush();
        }

        @Override
        public void close() throws IOException {
            target.close();
        }

        @Override
        public boolean isReady() {
            return target.isReady();
        }

        @Override
        public void setWriteListener(WriteListener listener) {
            target.setWriteListener(listener);
        }
    }

    private final class TeeWriter extends Writer {
        private final PrintWriter target;

        TeeWriter(PrintWriter target) {
            this.target = target;
        }

        @Override
        public void write(char[] buffer, int offset, int length) {
            target.write(buffer, offset, length);
            if (copying()) capture.write(buffer, offset, length);
        }

        @Override
        public void write(String text, int offset, int length) {
            target.write(text, offset, length);
            if (copying()) capture.write(text, offset, length);
        }

        @Override
        public void flush() {
            target.flush();
        }

        @Override
        public void close() {
            target.close();
        }
    }
}
