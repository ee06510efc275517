/**
 * Streams the server resets itself for a limit (partial-messages.ts, unsent-answers.ts,
 * grpc-listener.ts), and why.
 * grpc-js ends such a call through its listener's onCancel, as it ends one whose client went away, so
 * without this the call's log line and `svc_grpc_requests_total` said CANCELLED, "call ended by the
 * client". The call observer reads the reason here and records what the client was told:
 * RESOURCE_EXHAUSTED (gRPC clients map ENHANCE_YOUR_CALM to it).
 */
import http2 from 'node:http2';

const reasons = new WeakMap<http2.ServerHttp2Stream, string>();

/** Resets `stream` with ENHANCE_YOUR_CALM, remembering `details` (the limit and its name) for the call's line. */
export function resetForLimit(stream: http2.ServerHttp2Stream, details: string): void {
  reasons.set(stream, details);
  stream.close(http2.constants.NGHTTP2_ENHANCE_YOUR_CALM);
}

/**
 * Why the server reset the stream of a grpc-js base call (BaseServerInterceptingCall, which keeps its
 * HTTP/2 stream in the field `stream`), or undefined when it did not. Reached only on a cancelled call.
 */
export function limitResetOf(baseCall: object): string | undefined {
  // A WeakMap answers undefined for a key that is not an object: no check needed if grpc-js renames it.
  return reasons.get((baseCall as { stream?: http2.ServerHttp2Stream }).stream!);
}
