/**
 * Whom the document-task threads are shared between (auth/principal.ts callerOf): the API key's name
 * when the call was authenticated, else the client's host without its port, whichever form the peer
 * string takes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Metadata } from '@grpc/grpc-js';
import { peerHost } from '../../src/main/auth/client-address';
import { bindKeyName, callerOf } from '../../src/main/auth/principal';

function call(peer: string, keyName?: string): { metadata: Metadata; getPeer(): string } {
  const metadata = new Metadata();
  if (keyName !== undefined) bindKeyName(metadata, keyName);
  return { metadata, getPeer: () => peer };
}

test('a call authenticated with an API key is counted by the key name, whatever its address', () => {
  assert.equal(callerOf(call('10.0.0.7:51234', 'ci-pipeline'), undefined), 'key:ci-pipeline');
  assert.equal(callerOf(call('10.0.0.8:40000', 'ci-pipeline'), undefined), 'key:ci-pipeline');
});

test("a call without a key is counted by its peer's host: every connection of one client together", () => {
  assert.equal(callerOf(call('10.0.0.7:51234'), undefined), 'peer:10.0.0.7');
  assert.equal(callerOf(call('10.0.0.7:51235'), undefined), 'peer:10.0.0.7');
  assert.notEqual(callerOf(call('10.0.0.8:51234'), undefined), callerOf(call('10.0.0.7:51234'), undefined));
});

test('peer strings as grpc-js and C-core write them give the host', () => {
  const cases: Array<[string, string]> = [
    ['127.0.0.1:50051', '127.0.0.1'],
    // grpc-js writes IPv6 addresses unbracketed, the port after the last colon.
    ['::1:50051', '::1'],
    ['::ffff:10.0.0.7:443', '::ffff:10.0.0.7'],
    ['2001:db8::1:8443', '2001:db8::1'],
    ['ipv4:10.0.0.7:50051', '10.0.0.7'],
    ['ipv6:[::1]:50051', '::1'],
    ['[2001:db8::1]:443', '2001:db8::1'],
    ['unix:/run/svc.sock', 'unix:/run/svc.sock'],
    // grpc-js without a remote address (a Unix socket).
    ['unknown', 'unknown'],
  ];
  for (const [peer, host] of cases) assert.equal(peerHost(peer), host, peer);
});
