/**
 * grpc-js writes lines of its own to stderr (console.error), past the server's logger and its
 * redaction. One of them, written for every request header whose value holds a character gRPC
 * metadata may not (a tab, a non-ASCII letter), quotes the header's whole value: a client sending
 * `authorization: Bearer<TAB><key>` put its key in the server's stderr, once per call, at whatever
 * rate it liked. Here grpc-js's error and info lines go through the server's logger instead, that
 * one naming only the header, and all of them at most grpcJsLogLinesPerMinute (the rest summed into
 * `suppressed`). Its trace lines (GRPC_TRACE with GRPC_VERBOSITY=DEBUG, which an operator turns on
 * to debug) still go to stderr, all of them, but the `server_call` trace's header dump shows no key.
 */
import * as grpc from '@grpc/grpc-js';
import { LIMITS } from '../shared/limits';
import { clip } from '../shared/text';
import { API_KEY_HEADER, AUTHORIZATION_HEADER } from './auth/presented-key';
import { rateLimited, withSuppressed } from './log-rate-limit';
import type { Logger } from './logger';

/** grpc-js metadata.ts: `Failed to add metadata entry ${key}: ${values}. ${error}. For more information see …`. */
const DROPPED_ENTRY = /^Failed to add metadata entry ([^:]*): /;

/** The key headers' values in a trace's JSON dump of metadata (`"x-api-key":["…"]`). */
const KEY_HEADER_VALUES = new RegExp(`"(${API_KEY_HEADER}|${AUTHORIZATION_HEADER})":\\[(?:"(?:[^"\\\\]|\\\\.)*",?)*\\]`, 'g');

/** Longest header name copied into the line. */
const MAX_HEADER_NAME_CHARS = 64;

/** Makes grpc-js write through `logger` (process-wide: grpc-js has one logger). */
export function routeGrpcJsLog(logger: Logger): void {
  const log = logger.child({ caller: 'grpc-js' });
  const write = rateLimited(LIMITS.grpcJsLogLinesPerMinute, 60_000);
  const writer = (level: 'error' | 'info') => (...parts: unknown[]) => {
    const text = parts.map(String).join(' ');
    const dropped = DROPPED_ENTRY.exec(text);
    write((suppressed) => {
      const fields = withSuppressed({}, suppressed);
      if (dropped) {
        // A client's doing: never the value, which may be a key.
        log.warn({ ...fields, header: clip(dropped[1]!, MAX_HEADER_NAME_CHARS) }, 'a request header was left out of the call\'s metadata: its value has characters gRPC metadata may not hold (the value is not shown)');
      } else {
        log[level](fields, text);
      }
    });
  };
  grpc.setLogger({
    error: writer('error'),
    info: writer('info'),
    // As grpc-js's own logger writes them, the key headers' values left out.
    debug: (...parts: unknown[]) => console.error(`D ${parts.map(String).join(' ').replace(KEY_HEADER_VALUES, '"$1":["[redacted]"]')}`),
  });
}
