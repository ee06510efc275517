/**
 * Bytes of answers written to a stream that its client has not taken (HTTP/2 flow control: a client
 * that never reads, or opens its window at 0, leaves them in the stream's buffer). Only GetSchema
 * counted its answers (schemaAnswerMaxBytesInFlight): 40 ListEndpoints calls of an 8 MB answer on one
 * connection whose window stayed 0 held 300 MB of the server for as long as the connection lived, and
 * 256 streams a connection, several connections, end the process.
 *
 * Every `sweepMs` the open streams' unsent bytes are summed. A stream is reset (ENHANCE_YOUR_CALM;
 * gRPC clients see RESOURCE_EXHAUSTED), largest first, while
 * - its connection's streams together hold more than `maxBytesPerConnection`;
 * - all streams together hold more than `maxBytes`;
 * and also when it has held unsent bytes for `maxStallMs` without its client taking any: its unsent
 * bytes have not fallen, and its connection has written nothing, between sweeps all that time. (Node
 * does not tell what a stream has sent; a stream that keeps writing as its client keeps reading
 * never shows fewer unsent bytes, but its connection's count of bytes written grows.)
 * Between sweeps the totals may pass the limits by what the server writes in `sweepMs`.
 */
import http2 from 'node:http2';
import { LIMITS, formatBytes } from '../shared/limits';
import { LinkedMap } from '../shared/linked-map';
import { resetForLimit } from './limit-resets';

export interface UnsentAnswerLimits {
  /** Unsent answer bytes, all connections together. */
  maxBytes: number;
  /** Unsent answer bytes of one connection's streams. */
  maxBytesPerConnection: number;
  /** Longest a stream may hold unsent bytes without its client taking any. */
  maxStallMs: number;
  /** How often the streams are looked at. */
  sweepMs: number;
}

export const DEFAULT_UNSENT_ANSWER_LIMITS: Readonly<UnsentAnswerLimits> = Object.freeze({
  maxBytes: LIMITS.answerMaxUnsentBytes,
  maxBytesPerConnection: LIMITS.answerMaxUnsentBytesPerConnection,
  maxStallMs: LIMITS.answerMaxStallMs,
  sweepMs: 500,
});

/** Why a stream was reset; the `reason` label of `svc_unsent_answer_resets_total`. */
export const UNSENT_ANSWER_RESET_REASONS = Object.freeze(['server_bytes', 'connection_bytes', 'stall_time'] as const);
export type UnsentAnswerResetReason = (typeof UNSENT_ANSWER_RESET_REASONS)[number];

export interface UnsentAnswerReset {
  reason: UnsentAnswerResetReason;
  details: string;
  peer: string | undefined;
}

export interface UnsentAnswerGuard {
  /** Stops the sweep. */
  close(): void;
}

/** An open stream: its unsent bytes at the last sweep and when its client last took some. */
interface Followed {
  unsent: number;
  progressAt: number;
}

export function guardUnsentAnswers(
  server: http2.Http2Server | http2.Http2SecureServer,
  limits: UnsentAnswerLimits,
  onReset: (reset: UnsentAnswerReset) => void,
): UnsentAnswerGuard {
  /**
   * Open streams; what a sweep has seen of each, from the first sweep that found it open (none per call
   * before). Streams come and go with every call: not a Map (linked-map.ts).
   */
  const streams = new LinkedMap<http2.ServerHttp2Stream, Followed | undefined>();

  function onClose(this: http2.ServerHttp2Stream): void {
    streams.delete(this);
  }
  // Shared listeners, no closure per call ('on', not 'once', whose wrapper is one more object per call: a stream closes once).
  function onStream(stream: http2.ServerHttp2Stream): void {
    streams.set(stream, undefined);
    stream.on('close', onClose);
  }
  server.on('session', (session: http2.ServerHttp2Session) => session.on('stream', onStream));

  const reset = (stream: http2.ServerHttp2Stream, reason: UnsentAnswerResetReason, details: string) => {
    streams.delete(stream);
    const peer = stream.session?.socket?.remoteAddress;
    resetForLimit(stream, details);
    onReset({ reason, details, peer });
  };

  /** Each connection's bytes written at the last sweep. */
  let writtenBefore = new Map<http2.Http2Session, number>();

  const sweep = setInterval(() => {
    const now = performance.now();
    const writtenNow = new Map<http2.Http2Session, number>();
    /** Whether the stream's connection has written anything since the last sweep (its client reads). */
    const connectionSent = (session: http2.Http2Session | undefined): boolean => {
      if (session === undefined) return false;
      let written = writtenNow.get(session);
      if (written === undefined) writtenNow.set(session, (written = session.socket?.bytesWritten ?? 0));
      return written > (writtenBefore.get(session) ?? -1);
    };
    const byConnection = new Map<http2.Http2Session | undefined, Array<[http2.ServerHttp2Stream, number]>>();
    let total = 0;
    for (const [stream, seen] of streams.entries()) {
      const unsent = stream.writableLength;
      let followed = seen;
      if (followed === undefined) streams.set(stream, (followed = { unsent, progressAt: now }));
      if (unsent < followed.unsent || unsent === 0 || connectionSent(stream.session)) followed.progressAt = now;
      followed.unsent = unsent;
      if (unsent === 0) continue;
      if (now - followed.progressAt > limits.maxStallMs) {
        reset(stream, 'stall_time', `an answer of which ${formatBytes(unsent)} were not taken by the client for ${limits.maxStallMs / 1000} s (answerMaxStallMs)`);
        continue;
      }
      total += unsent;
      let connection = byConnection.get(stream.session);
      if (connection === undefined) byConnection.set(stream.session, (connection = []));
      connection.push([stream, unsent]);
    }
    for (const connection of byConnection.values()) {
      let held = connection.reduce((sum, [, unsent]) => sum + unsent, 0);
      connection.sort((a, b) => b[1] - a[1]);
      while (held > limits.maxBytesPerConnection && connection.length > 0) {
        const [stream, unsent] = connection.shift()!;
        held -= unsent;
        total -= unsent;
        reset(stream, 'connection_bytes', `the client of this connection had not taken ${formatBytes(held + unsent)} of answers, over ${formatBytes(limits.maxBytesPerConnection)} (answerMaxUnsentBytesPerConnection)`);
      }
    }
    if (total > limits.maxBytes) {
      const largest = [...byConnection.values()].flat().filter(([stream]) => !stream.closed).sort((a, b) => b[1] - a[1]);
      for (const [stream, unsent] of largest) {
        if (total <= limits.maxBytes) break;
        total -= unsent;
        reset(stream, 'server_bytes', `clients had not taken ${formatBytes(total + unsent)} of answers, over ${formatBytes(limits.maxBytes)} (answerMaxUnsentBytes)`);
      }
    }
    writtenBefore = writtenNow;
  }, limits.sweepMs);
  sweep.unref();

  return { close: () => clearInterval(sweep) };
}
