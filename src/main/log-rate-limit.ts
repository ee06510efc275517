/**
 * Log lines a client can cause at will (refused keys, refused calls) are written at a bounded rate,
 * so a client that hammers the server cannot fill the log; what they record is still counted in
 * full by the metrics.
 */

/** Writes one line when the rate allows; `suppressed` is how many were left out before it. */
export type RateLimitedWrite = (write: (suppressed: number) => void) => void;

/**
 * Runs `write` at most `perWindow` times per window; the first write after a quiet spell is told how
 * many were left out since the last one, to carry as its `suppressed` field.
 */
export function rateLimited(perWindow: number, windowMs: number): RateLimitedWrite {
  let windowStart = -Infinity;
  let written = 0;
  let suppressed = 0;
  return (write) => {
    const now = performance.now();
    if (now - windowStart >= windowMs) {
      windowStart = now;
      written = 0;
    }
    if (written >= perWindow) {
      suppressed += 1;
      return;
    }
    written += 1;
    write(suppressed);
    suppressed = 0;
  };
}
