package dev.svc.client.servlet;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;

/** Bytes seen on a body, up to a limit; past it the capture stops and is marked incomplete. */
final class BodyCapture {
    private final int maxBytes;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final StringBuilder chars = new StringBuilder();
    private boolean overflowed;

    BodyCapture(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    synchronized void write(int b) {
        if (room(1)) bytes.write(b);
    }

    synchronized void write(byte[] buffer, int offset, int length) {
        if (room(length)) bytes.write(buffer, offset, length);
    }

    /** Characters written through a Writer; counted against the limit as their UTF-8 size at most (3 bytes each). */
    synchronized void write(char[] buffer, int offset, int length) {
        if (room((long) length * 3)) chars.append(buffer, offset, length);
    }

    synchronized void write(String text, int offset, int length) {
        if (room((long) length * 3)) chars.append(text, offset, offset + length);
    }

    synchronized void markIncomplete() {
        overflowed = true;
    }

    synchronized boolean complete() {
        return !overflowed;
    }

    /** The captured body: bytes decoded with {@code charset}, then characters written through a Writer. */
    synchronized String text(Charset charset) {
        return bytes.size() == 0 ? chars.toString() : bytes.toString(charset) + chars;
    }

    private boolean room(long more) {
        if (overflowed) return false;
        if (bytes.size() + (long) chars.length() * 3 + more > maxBytes) {
            overflowed = true;
            return false;
        }
        return true;
    }
}
