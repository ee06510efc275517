/**
 * Log lines a client can cause at will (refused keys, refused calls) are written at a bounded rate,
 * so a client that hammers the server cannot fill the log; what they record is still counted in
 * full by the metrics.
 */

/** Writes one line when the rate allows; `suppressed` is how many were left out before it. */
export type RateLimitedWrite = (write: (suppressed: number) => void) => void;

/**
 * Runs `write` at most `perWindow` times per window; the first write after a quiet spell is told how
 * many were left out since the last one, to carry as its `suppressed` field. When a window ends with
 * lines left out and none written since, the last one left out is written then, carrying how many
 * were left out before it: a flood that stops is still told in full, when it stops, instead of in the
 * line of a failure that may come days later (or never).
 */
export function rateLimited(perWindow: number, windowMs: number): RateLimitedWrite {
  let windowStart = -Infinity;
  let written = 0;
  let suppressed = 0;
  /** The latest write left out, and the timer that writes it at the window's end. */
  let latest: ((suppressed: number) => void) | undefined;
  let flush: NodeJS.Timeout | undefined;
  const writeNow = (write: (suppressed: number) => void, leftOut: number) => {
    written += 1;
    suppressed = 0;
    latest = undefined;
    write(leftOut);
  };
  return (write) => {
    const now = performance.now();
    if (now - windowStart >= windowMs) {
      windowStart = now;
      written = 0;
    }
    if (written >= perWindow) {
      suppressed += 1;
      latest = write;
      flush ??= setTimeout(() => {
        flush = undefined;
        if (latest === undefined) return;
        windowStart = performance.now();
        written = 0;
        writeNow(latest, suppressed - 1);
      }, Math.max(0, windowStart + windowMs - now)).unref();
      return;
    }
    writeNow(write, suppressed);
  };
}

/** A line's fields with `suppressed` added when lines were left out before it (as `rateLimited` tells). */
export function withSuppressed<T extends object>(fields: T, suppressed: number): T | (T & { suppressed: number }) {
  return suppressed > 0 ? { ...fields, suppressed } : fields;
}
