/**
 * Compressed request messages while grpc-js decompresses them. grpc-js inflates a message whole
 * (gzip or deflate, `grpc-encoding`) before any handler sees it, and bounds only each message
 * (maxGrpcMessageBytes), never how many inflate at once: 100 calls of one 40 KB gzip message each,
 * 4 MB from one client, each inflating to 40 MiB of zeros, took the server from 176 MB to 4.4 GB,
 * and it kept 4.1 GB afterwards. The partial-message guard counted only their wire bytes.
 *
 * Here grpc-js's decompression (BaseServerInterceptingCall.decompressMessage, grpc-js
 * src/server-interceptors.ts) is replaced, once for the process, by the same inflation that charges
 * each decompressed chunk to the partial-message guard of the call's connection, under its limits
 * (receiveMaxPartialBytes, its large-message share, receiveMaxPartialBytesPerConnection). A message
 * that would pass one stops inflating, and its call ends RESOURCE_EXHAUSTED naming the limit. A
 * message whose stream closes while it inflates (its client reset it) stops too. What a message
 * held is released when it is whole or given up: from then on it is a received message like any
 * other, bounded by the handlers' own limits.
 */
import type http2 from 'node:http2';
import zlib from 'node:zlib';
import * as grpcInterceptors from '@grpc/grpc-js/build/src/server-interceptors';
import { status } from '@grpc/grpc-js';
import { ErrorCode, SvcError } from '../shared/errors';
import { grpcStatusOf, statusDetails } from './grpc-status';
import type { PartialMessageGuard, PartialMessageResetReason } from './partial-messages';

/** The fields of grpc-js's base call that decompression reads (BaseServerInterceptingCall). */
interface BaseCall {
  stream?: http2.ServerHttp2Stream;
  maxReceiveMessageSize: number;
}
type Decompress = (this: BaseCall, message: Buffer, encoding: string) => Buffer | Promise<Buffer>;
/** What grpc-js's sendStatus takes from a rejected decompression. */
interface DecompressionFailure { code: status; details: string }

/** The partial-message guard of each connection of a listener that guards decompression. */
const guardsBySession = new WeakMap<http2.Http2Session, PartialMessageGuard>();
let installed = false;

/** Counts the decompressed bytes of compressed messages on `server`'s connections against `guard`'s limits. */
export function guardDecompressedMessages(server: http2.Http2Server | http2.Http2SecureServer, guard: PartialMessageGuard): void {
  installDecompression();
  server.on('session', (session: http2.ServerHttp2Session) => guardsBySession.set(session, guard));
}

function installDecompression(): void {
  if (installed) return;
  const prototype = (grpcInterceptors as unknown as { BaseServerInterceptingCall?: { prototype: { decompressMessage?: Decompress } } })
    .BaseServerInterceptingCall?.prototype;
  const original = prototype?.decompressMessage;
  if (prototype === undefined || typeof original !== 'function') {
    throw new Error('this grpc-js version does not show how it decompresses request messages, so compressed messages '
      + 'cannot be bounded; use the grpc-js version in package-lock.json');
  }
  installed = true;
  prototype.decompressMessage = function decompressMessage(this: BaseCall, message: Buffer, encoding: string) {
    const session = this.stream?.session;
    const guard = session === undefined ? undefined : guardsBySession.get(session);
    if (guard === undefined || (encoding !== 'gzip' && encoding !== 'deflate')) return original.call(this, message, encoding);
    return inflate(this, message.subarray(5), encoding, session!, guard);
  };
}

/** grpc-js's own inflation (same outcomes for a bad or oversized message), each chunk held against the guard. */
function inflate(call: BaseCall, compressed: Buffer, encoding: 'gzip' | 'deflate', session: http2.Http2Session, guard: PartialMessageGuard): Promise<Buffer> {
  const inflater = encoding === 'gzip' ? zlib.createGunzip() : zlib.createInflate();
  const stream = call.stream!;
  const peer = session.socket?.remoteAddress;
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let held = 0;
    let settled = false;
    const settle = (failure: DecompressionFailure | undefined) => {
      if (settled) return;
      settled = true;
      guard.releaseDecompressed(session, held);
      held = 0;
      if (failure === undefined) {
        resolve(Buffer.concat(parts));
        return;
      }
      inflater.destroy();
      parts.length = 0;
      reject(failure);
    };
    inflater.on('error', () => settle({ code: status.INTERNAL, details: 'Failed to decompress message' }));
    inflater.on('data', (chunk: Buffer) => {
      if (settled) return;
      if (stream.destroyed) return settle({ code: status.CANCELLED, details: 'the call ended while its request message was decompressed' });
      if (call.maxReceiveMessageSize !== -1 && held + chunk.byteLength > call.maxReceiveMessageSize) {
        return settle({ code: status.RESOURCE_EXHAUSTED, details: `Received message that decompresses to a size larger than ${call.maxReceiveMessageSize}` });
      }
      const refusal = guard.holdDecompressed(session, held, chunk.byteLength, peer);
      if (refusal !== undefined) return settle(refusalOf(refusal));
      held += chunk.byteLength;
      parts.push(chunk);
    });
    inflater.on('end', () => settle(undefined));
    inflater.end(compressed);
  });
}

/** The status of a message refused at a limit: the server's shared one is OVERLOADED (retry shortly), the connection's LIMIT_EXCEEDED. */
function refusalOf([reason, details]: [PartialMessageResetReason, string]): DecompressionFailure {
  const error = new SvcError(reason === 'server_bytes' ? ErrorCode.OVERLOADED : ErrorCode.LIMIT_EXCEEDED, `request refused by the server: ${details}`);
  return { code: grpcStatusOf(error), details: statusDetails(error.message) };
}
