package dev.svc.client.servlet;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;

/** Bytes seen on a body, up to a limit; past it the capture stops and is marked incomplete. */
final class BodyCapture {
    private final int maxBytes;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final StringBuilder chars = new StringBuilder();
    /** The UTF-8 size of {@code chars}, counted as they are written. */
    private long charBytes;
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

    /** Characters written through a Writer; counted against the limit as their UTF-8 size. */
    synchronized void write(char[] buffer, int offset, int length) {
        if (overflowed) return;
        long size = 0;
        for (int i = offset, end = offset + length; i < end; i++) size += utf8Size(buffer[i]);
        if (room(size)) {
            chars.append(buffer, offset, length);
            charBytes += size;
        }
    }

    synchronized void write(String text, int offset, int length) {
        if (overflowed) return;
        long size = 0;
        for (int i = offset, end = offset + length; i < end; i++) size += utf8Size(text.charAt(i));
        if (room(size)) {
            chars.append(text, offset, offset + length);
            charBytes += size;
        }
    }

    /** What the servlet wrote is discarded (the response's buffer was reset): capture afresh. */
    synchronized void clear() {
        bytes.reset();
        chars.setLength(0);
        charBytes = 0;
        overflowed = false;
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

    /** A surrogate pair is 4 bytes in UTF-8: 2 for each half. */
    private static int utf8Size(char c) {
        if (c < 0x80) return 1;
        if (c < 0x800 || Character.isSurrogate(c)) return 2;
        return 3;
    }

    private boolean room(long more) {
        if (overflowed) return false;
        if (bytes.size() + charBytes + more > maxBytes) {
            overflowed = true;
            return false;
        }
        return true;
    }
}
