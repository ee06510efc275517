/**
 * A request header whose value holds a character gRPC metadata may not (a tab, a non-ASCII letter)
 * is left out by grpc-js, which wrote its whole value to stderr in a line of its own: a client that
 * sent `authorization: Bearer<TAB><key>` put its key there, once per call, as often as it liked.
 * grpc-js's lines now go through the server's logger, naming only the header, at a bounded rate.
 * Its trace lines (GRPC_TRACE=server_call, GRPC_VERBOSITY=DEBUG) dumped every call's headers, the
 * configured key included: they still go to stderr, without the key headers' values.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import * as grpc from '@grpc/grpc-js';
import { log as grpcJsLog } from '@grpc/grpc-js/build/src/logging';
import { LIMITS } from '../../src/shared/limits';
import { captureLogs } from '../helpers/log-capture';
import { startTestServer } from '../helpers/server';

const KEY = 'Zq8Vw3Lm9Pt2Xr7Ny4Hb';
const CALLS = LIMITS.grpcJsLogLinesPerMinute + 20;

/** Pieces of the key four characters or longer found in `text`. */
function keyPieces(text: string): string[] {
  const found: string[] = [];
  for (let start = 0; start + 4 <= KEY.length; start++) if (text.includes(KEY.slice(start, start + 4))) found.push(KEY.slice(start, start + 4));
  return found;
}

/** One ListSchemas call with `headers`; resolves with its grpc-status. */
function call(session: http2.ClientHttp2Session, headers: http2.OutgoingHttpHeaders): Promise<string | undefined> {
  const stream = session.request({ ':method': 'POST', ':path': '/svc.ContractValidator/ListSchemas', 'content-type': 'application/grpc', te: 'trailers', ...headers });
  stream.on('error', () => undefined);
  stream.on('data', () => undefined);
  return new Promise((resolve) => {
    const done = (received: http2.IncomingHttpHeaders) => {
      if (received['grpc-status'] !== undefined) resolve(String(received['grpc-status']));
    };
    stream.on('response', done);
    stream.on('trailers', done);
    stream.on('close', () => resolve(undefined));
    stream.end(Buffer.alloc(5));
  });
}

test('a key in a header value gRPC metadata cannot hold never reaches stderr or the log; such lines are bounded', async () => {
  const logs = captureLogs('info');
  const server = await startTestServer({ apiKeyAuth: true, logger: logs.logger, env: { SVC_API_KEYS: KEY } });
  let stderr = '';
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    stderr += String(chunk);
    return write(chunk, ...rest);
  }) as typeof process.stderr.write;
  const session = http2.connect(`http://127.0.0.1:${server.server.port}`);
  session.on('error', () => undefined);
  try {
    const shapes = [{ authorization: `Bearer\t${KEY}` }, { 'x-api-key': `${KEY}\u00e9` }];
    for (const headers of shapes) assert.equal(await call(session, headers), '16', 'refused as a call without a key');
    for (let i = 0; i < CALLS; i++) await call(session, shapes[i % 2]!);
  } finally {
    process.stderr.write = write;
    session.destroy();
    await server.close();
  }
  assert.deepEqual(keyPieces(stderr), [], stderr.slice(0, 500));
  assert.deepEqual(keyPieces(logs.text()), [], logs.text().slice(0, 500));
  const dropped = logs.lines().filter((line) => line.caller === 'grpc-js');
  assert.ok(dropped.length >= 2 && dropped.length <= LIMITS.grpcJsLogLinesPerMinute, `${dropped.length} grpc-js lines for ${CALLS + 2} calls`);
  assert.deepEqual(new Set(dropped.map((line) => line.header)), new Set(['authorization', 'x-api-key']));
  assert.match(String(dropped[0]!.msg), /a request header was left out of the call's metadata: its value has characters gRPC metadata may not hold \(the value is not shown\)/);
});

test('grpc-js trace lines that dump a call\'s headers show no key', async () => {
  const server = await startTestServer({ apiKeyAuth: true, env: { SVC_API_KEYS: KEY } });
  let stderr = '';
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    stderr += String(chunk);
    return typeof chunk === 'string' && chunk.startsWith('D ') ? true : write(chunk, ...rest);
  }) as typeof process.stderr.write;
  grpc.setLogVerbosity(grpc.logVerbosity.DEBUG);
  try {
    // The line grpc-js's server_call tracer writes for each call (server-interceptors.ts), as GRPC_TRACE turns it on at load.
    const headers = { 'content-type': ['application/grpc'], 'x-api-key': [`${KEY}, other`], authorization: [`Bearer ${KEY}`], 'x-request-id': ['r-1'] };
    grpcJsLog(grpc.logVerbosity.DEBUG, `2026-01-01T00:00:00.000Z | v1 1 | server_call | Request to /svc.ContractValidator/ListSchemas received headers ${JSON.stringify(headers)}`);
  } finally {
    grpc.setLogVerbosity(grpc.logVerbosity.ERROR);
    process.stderr.write = write;
    await server.close();
  }
  assert.match(stderr, /^D .*received headers \{"content-type":\["application\/grpc"\],"x-api-key":\["\[redacted\]"\],"authorization":\["\[redacted\]"\],"x-request-id":\["r-1"\]\}\n$/);
  assert.deepEqual(keyPieces(stderr), []);
});
