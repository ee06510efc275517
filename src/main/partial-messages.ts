/**
 * Bytes of request messages that have begun to arrive but are not yet whole. grpc-js gathers a
 * message in memory until its last byte arrives and only then calls a handler, so every limit a
 * handler keeps (validationMaxQueuedBytes and the others) is blind to them: 32 streams that each sent
 * 39 MiB of a 40 MiB message and stalled held 1.3 GB of the server, for as long as they liked, and
 * more connections hold more.
 *
 * Here each stream's incoming bytes are followed at gRPC message boundaries (the 5-byte length
 * prefix) as grpc-js reads them. A stream is reset, with ENHANCE_YOUR_CALM (gRPC clients report
 * RESOURCE_EXHAUSTED), when the message it is sending
 * - would take the bytes of partly received messages past `maxBytes` for the whole server; a
 *   message over `largeMessageBytes` may use only `largeMessageShare` of it, so ordinary calls
 *   still arrive while large ones fill the rest;
 * - would take its connection past `maxBytesPerConnection` (one client cannot take the server's
 *   share alone);
 * - is still not whole `maxReceiveMs` after its first byte (held bytes are held for a bounded time).
 * A message that arrives whole in one read, the common case, is only measured: no state is kept.
 * A stream whose first message has not begun `firstMessageStartMaxMs` after its headers is reset
 * too: it holds no bytes, but as a call in flight it kept its connection (and a descriptor) open for
 * good, since only a connection without calls is closed as idle.
 * A compressed message counts again while grpc-js decompresses it, by its decompressed bytes
 * (decompressed-messages.ts): its few bytes on the wire may stand for up to maxGrpcMessageBytes.
 */
import http2 from 'node:http2';
import { LIMITS, formatBytes } from '../shared/limits';
import { LinkedMap } from '../shared/linked-map';
import { resetForLimit } from './limit-resets';

export interface PartialMessageLimits {
  /** Bytes of partly received messages, all connections together. */
  maxBytes: number;
  /** Bytes of partly received messages on one connection. */
  maxBytesPerConnection: number;
  /** A message longer than this is large: it may use only `largeMessageShare` of `maxBytes`. */
  largeMessageBytes: number;
  largeMessageShare: number;
  /** Longest a message may take to arrive, from its first byte to its last. */
  maxReceiveMs: number;
  /** Longest a stream may wait after its headers for the first byte of its first message. */
  firstMessageStartMaxMs: number;
}

export const DEFAULT_PARTIAL_MESSAGE_LIMITS: Readonly<PartialMessageLimits> = Object.freeze({
  maxBytes: LIMITS.receiveMaxPartialBytes,
  maxBytesPerConnection: LIMITS.receiveMaxPartialBytesPerConnection,
  largeMessageBytes: LIMITS.receiveLargeMessageBytes,
  largeMessageShare: LIMITS.receiveLargeMessageShare,
  maxReceiveMs: LIMITS.messageReceiveMaxMs,
  firstMessageStartMaxMs: LIMITS.firstMessageStartMaxMs,
});

/** Why a stream was reset; the `reason` label of `svc_partial_message_resets_total`. */
export const PARTIAL_MESSAGE_RESET_REASONS = Object.freeze(['server_bytes', 'connection_bytes', 'receive_time', 'first_message_time'] as const);
export type PartialMessageResetReason = (typeof PARTIAL_MESSAGE_RESET_REASONS)[number];

export interface PartialMessageReset {
  reason: PartialMessageResetReason;
  /** What was refused, with the limit's name and value, for the log. */
  details: string;
  /** The peer's address. */
  peer: string | undefined;
}

export interface PartialMessageGuard {
  /** Bytes of partly received messages now held, all connections together. */
  heldBytes(): number;
  /**
   * Holds `bytes` more of a compressed message being decompressed on `session`, `decompressedBytes`
   * of it so far (decompressed-messages.ts). When they would pass a limit nothing is held, the
   * refusal is reported as a reset is, and its reason and details (the limit and its name) are answered.
   */
  holdDecompressed(session: http2.Http2Session, decompressedBytes: number, bytes: number, peer: string | undefined): [PartialMessageResetReason, string] | undefined;
  /** Releases what holdDecompressed held on `session`, once its message is whole or given up. */
  releaseDecompressed(session: http2.Http2Session, bytes: number): void;
  /** Stops the receive-time sweep. */
  close(): void;
}

const PREFIX_BYTES = 5;

/** A stream in the middle of a message (or of its length prefix). */
interface PartialMessage {
  readonly session: http2.Http2Session;
  readonly prefix: Buffer;
  prefixFilled: number;
  /** The message's length from its prefix (valid once the prefix is whole). */
  declared: number;
  /** Bytes of the message still to come. */
  remaining: number;
  /** Bytes of the message received so far, counted in the totals. */
  held: number;
  /** When the message's first byte arrived (performance.now()). */
  startedAt: number;
}

export function guardPartialMessages(
  server: http2.Http2Server | http2.Http2SecureServer,
  limits: PartialMessageLimits,
  onReset: (reset: PartialMessageReset) => void,
): PartialMessageGuard {
  checkLimits(limits);
  const largeMessageMaxBytes = Math.floor(limits.maxBytes * limits.largeMessageShare);
  // Streams come and go with every call: not Maps (linked-map.ts).
  const partial = new LinkedMap<http2.ServerHttp2Stream, PartialMessage>();
  /** Streams that have sent no byte of a message yet, with when their headers came (performance.now()). */
  const awaitingFirstByte = new LinkedMap<http2.ServerHttp2Stream, number>();
  const heldByConnection = new Map<http2.Http2Session, number>();
  let heldBytes = 0;

  const holdOn = (session: http2.Http2Session, bytes: number) => {
    heldBytes += bytes;
    heldByConnection.set(session, (heldByConnection.get(session) ?? 0) + bytes);
  };
  const releaseOn = (session: http2.Http2Session, bytes: number) => {
    if (bytes === 0) return;
    heldBytes -= bytes;
    const connection = heldByConnection.get(session)! - bytes;
    if (connection === 0) heldByConnection.delete(session);
    else heldByConnection.set(session, connection);
  };
  const hold = (message: PartialMessage, bytes: number) => {
    message.held += bytes;
    holdOn(message.session, bytes);
  };
  const release = (message: PartialMessage) => {
    releaseOn(message.session, message.held);
    message.held = 0;
  };
  const forget = (stream: http2.ServerHttp2Stream) => {
    const message = partial.get(stream);
    if (message === undefined) return;
    release(message);
    partial.delete(stream);
  };
  const refuse = (stream: http2.ServerHttp2Stream, message: PartialMessage, reason: PartialMessageResetReason, details: string) => {
    forget(stream);
    resetForLimit(stream, details);
    onReset({ reason, details, peer: message.session.socket?.remoteAddress });
  };

  /**
   * The limit `bytes` more of a message of `size` bytes would pass on `session`, or undefined when
   * they can be held. Checked on every chunk received: it builds nothing (refusalDetails words a refusal).
   */
  const limitPassed = (session: http2.Http2Session, size: number, bytes: number): PartialMessageResetReason | undefined => {
    if ((heldByConnection.get(session) ?? 0) + bytes > limits.maxBytesPerConnection) return 'connection_bytes';
    return heldBytes + bytes > (size > limits.largeMessageBytes ? largeMessageMaxBytes : limits.maxBytes) ? 'server_bytes' : undefined;
  };
  /** Why `what`, a message of `size` bytes, was refused at the limit of `reason`. */
  const refusalDetails = (reason: PartialMessageResetReason, size: number, what: string): string => {
    if (reason === 'connection_bytes') {
      return `${what} would take its connection's partly received messages past ${formatBytes(limits.maxBytesPerConnection)} (receiveMaxPartialBytesPerConnection)`;
    }
    const limit = size > limits.largeMessageBytes
      ? `${formatBytes(largeMessageMaxBytes)}, the share of messages over ${formatBytes(limits.largeMessageBytes)} in receiveMaxPartialBytes`
      : `${formatBytes(limits.maxBytes)} (receiveMaxPartialBytes)`;
    return `${what} would take the server's partly received messages past ${limit}`;
  };

  function onData(this: http2.ServerHttp2Stream, chunk: Buffer): void {
    awaitingFirstByte.delete(this);
    let message = partial.get(this);
    let offset = 0;
    if (message === undefined) {
      offset = endOfWholeMessages(chunk);
      // A stream reset here may still hand over data it had read: nothing more is counted for it.
      if (offset === chunk.length || this.closed) return;
      message = { session: this.session!, prefix: Buffer.alloc(PREFIX_BYTES), prefixFilled: 0, declared: 0, remaining: 0, held: 0, startedAt: 0 };
      partial.set(this, message);
    }
    while (offset < chunk.length) {
      if (message.prefixFilled < PREFIX_BYTES) {
        if (message.prefixFilled === 0 && message.held === 0) message.startedAt = performance.now();
        const take = Math.min(PREFIX_BYTES - message.prefixFilled, chunk.length - offset);
        chunk.copy(message.prefix, message.prefixFilled, offset, offset + take);
        message.prefixFilled += take;
        offset += take;
        if (message.prefixFilled === PREFIX_BYTES) {
          message.declared = message.prefix.readUInt32BE(1);
          message.remaining = message.declared;
          if (message.remaining === 0) message.prefixFilled = 0; // an empty message is whole
        }
        continue;
      }
      const take = Math.min(message.remaining, chunk.length - offset);
      const passed = limitPassed(message.session, message.declared, take);
      if (passed) return refuse(this, message, passed, refusalDetails(passed, message.declared, describe(message)));
      hold(message, take);
      message.remaining -= take;
      offset += take;
      if (message.remaining === 0) {
        release(message);
        message.prefixFilled = 0;
      }
    }
    if (message.prefixFilled === 0) forget(this); // between messages: nothing is held
  }

  function onClose(this: http2.ServerHttp2Stream): void {
    awaitingFirstByte.delete(this);
    forget(this);
  }

  // Shared listeners, no closure per call: most streams never hold a partial message ('on', not
  // 'once', whose wrapper is one more object per call: a stream closes once). A request that ends
  // before any message stays awaited until it closes: grpc-js answers it at once.
  function onStream(stream: http2.ServerHttp2Stream): void {
    awaitingFirstByte.set(stream, performance.now());
    stream.on('data', onData);
    stream.on('close', onClose);
  }

  // grpc-js pauses each stream until its call reads, so 'data' reports the bytes grpc-js itself has
  // taken in; adding a listener does not resume a paused stream.
  server.on('session', (session: http2.ServerHttp2Session) => session.on('stream', onStream));

  const sweep = setInterval(() => {
    const now = performance.now();
    const oldest = now - limits.maxReceiveMs;
    for (const [stream, message] of partial.entries()) {
      if (message.startedAt < oldest && partial.get(stream) === message) {
        refuse(stream, message, 'receive_time', `${describe(message)} was not whole ${limits.maxReceiveMs / 1000} s after its first byte (messageReceiveMaxMs)`);
      }
    }
    const latestHeaders = now - limits.firstMessageStartMaxMs;
    // Insertion order is the order headers came: the first one still in time ends the look.
    for (let oldest = awaitingFirstByte.first(); oldest !== undefined && oldest[1] < latestHeaders; oldest = awaitingFirstByte.first()) {
      const [stream] = oldest;
      awaitingFirstByte.delete(stream);
      const details = `a call sent no request message ${limits.firstMessageStartMaxMs / 1000} s after its headers (firstMessageStartMaxMs)`;
      const peer = stream.session?.socket?.remoteAddress;
      resetForLimit(stream, details);
      onReset({ reason: 'first_message_time', details, peer });
    }
  }, Math.min(1_000, limits.maxReceiveMs, limits.firstMessageStartMaxMs));
  sweep.unref();

  return {
    heldBytes: () => heldBytes,
    holdDecompressed(session, decompressedBytes, bytes, peer) {
      const size = decompressedBytes + bytes;
      const passed = limitPassed(session, size, bytes);
      if (passed === undefined) {
        holdOn(session, bytes);
        return undefined;
      }
      const details = refusalDetails(passed, size, `a compressed request message decompressing to more than ${formatBytes(decompressedBytes)}`);
      onReset({ reason: passed, details, peer });
      return [passed, details];
    },
    releaseDecompressed: releaseOn,
    close: () => clearInterval(sweep),
  };
}

function describe(message: PartialMessage): string {
  return `a request message of ${formatBytes(message.declared)}`;
}

/** The offset where the chunk's first incomplete message starts (the chunk's length when every message in it is whole). */
function endOfWholeMessages(chunk: Buffer): number {
  let offset = 0;
  while (offset + PREFIX_BYTES <= chunk.length) {
    const end = offset + PREFIX_BYTES + chunk.readUInt32BE(offset + 1);
    if (end > chunk.length) return offset;
    offset = end;
  }
  return offset;
}

function checkLimits(limits: PartialMessageLimits): void {
  for (const name of ['maxBytes', 'maxBytesPerConnection', 'largeMessageBytes', 'maxReceiveMs', 'firstMessageStartMaxMs'] as const) {
    if (!Number.isSafeInteger(limits[name]) || limits[name] < 1) throw new TypeError(`partial message limits: ${name} must be a positive integer`);
  }
  if (!(limits.largeMessageShare > 0 && limits.largeMessageShare <= 1)) throw new TypeError('partial message limits: largeMessageShare must be above 0 and at most 1');
}
