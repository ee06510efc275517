/**
 * The client behind a trusted proxy (auth/client-address.ts): which entries configure the trusted
 * proxies, and which address of `x-forwarded-for` a call counts as.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Metadata } from '@grpc/grpc-js';
import { forwardedClient, trustedProxyList, trustedProxyProblem } from '../../src/main/auth/client-address';
import { bindKeyName, callerOf } from '../../src/main/auth/principal';
import { ConfigError, resolveServerConfig } from '../../src/main/config';

const PROXIES = trustedProxyList(['10.1.0.0/16', '2001:db8:a::/48', '127.0.0.1']);

test('trusted proxies are addresses or CIDR ranges of either family; anything else is named', () => {
  for (const entry of ['127.0.0.1', '10.0.0.0/8', '0.0.0.0/0', '::1', '2001:db8::/32', '::/0', '10.1.2.3/32', '::ffff:10.0.0.1']) {
    assert.equal(trustedProxyProblem(entry), undefined, entry);
  }
  for (const entry of ['', 'proxy.internal', '10.0.0.0/33', '2001:db8::/129', '10.0.0.0/', '10.0.0.0/8/8', '10.0.0.0/-1', '10.0.0.0/ 8', '10.0.0.256', 'localhost']) {
    assert.match(trustedProxyProblem(entry) ?? '', /is not an IP address or CIDR range/, entry);
  }
});

test('the server configuration reads a comma-separated list and refuses a bad entry by name', () => {
  assert.deepEqual(resolveServerConfig({}, { SVC_TRUSTED_PROXIES: ' 10.1.0.0/16 , ::1,' }).trustedProxies, ['10.1.0.0/16', '::1']);
  assert.deepEqual(resolveServerConfig({}, {}).trustedProxies, []);
  assert.deepEqual(resolveServerConfig({ trustedProxies: ['127.0.0.1'] }, { SVC_TRUSTED_PROXIES: '10.0.0.0/8' }).trustedProxies, ['127.0.0.1']);
  assert.throws(() => resolveServerConfig({ trustedProxies: ['10.1.0.0/16', 'lb.internal'] }, {}), (error: unknown) =>
    error instanceof ConfigError && /"lb\.internal" is not an IP address or CIDR range/.test(error.message));
});

test('a call from a trusted proxy counts as the nearest address in x-forwarded-for that is not a trusted proxy', () => {
  assert.equal(forwardedClient(PROXIES, '10.1.4.2:51234', ['203.0.113.7']), '203.0.113.7');
  // The client wrote 192.0.2.1 itself; the proxy appended the address it saw.
  assert.equal(forwardedClient(PROXIES, '10.1.4.2:51234', ['192.0.2.1, 203.0.113.7']), '203.0.113.7');
  // Two proxies in a row, and the header split over several values.
  assert.equal(forwardedClient(PROXIES, '10.1.4.2:51234', ['192.0.2.1, 203.0.113.7', '10.1.9.9']), '203.0.113.7');
  assert.equal(forwardedClient(PROXIES, '127.0.0.1:40000', ['2001:db8:b::5, 2001:db8:a::1']), '2001:db8:b::5');
  // grpc-js writes IPv6 peers unbracketed; an IPv4-mapped peer matches the IPv4 range.
  assert.equal(forwardedClient(PROXIES, '2001:db8:a::7:443', ['203.0.113.7']), '203.0.113.7');
  assert.equal(forwardedClient(PROXIES, '::ffff:10.1.0.9:5000', ['203.0.113.7']), '203.0.113.7');
});

test('hops with ports or brackets give their address; a bare IPv6 address keeps every group', () => {
  assert.equal(forwardedClient(PROXIES, '10.1.4.2:1', ['203.0.113.7:51234']), '203.0.113.7');
  assert.equal(forwardedClient(PROXIES, '10.1.4.2:1', ['[2001:db8:b::5]:443']), '2001:db8:b::5');
  assert.equal(forwardedClient(PROXIES, '10.1.4.2:1', ['[2001:db8:b::5]']), '2001:db8:b::5');
  assert.equal(forwardedClient(PROXIES, '10.1.4.2:1', ['2001:db8:b::5:8443']), '2001:db8:b::5:8443');
});

test('a call counts as its peer when the peer is no trusted proxy, or the chain names no client', () => {
  // Not from a trusted proxy: whatever the client wrote is ignored.
  assert.equal(forwardedClient(PROXIES, '203.0.113.7:51234', ['192.0.2.1']), undefined);
  assert.equal(forwardedClient(PROXIES, '10.2.0.1:51234', ['192.0.2.1']), undefined);
  assert.equal(forwardedClient(PROXIES, 'unknown', ['192.0.2.1']), undefined);
  // From a trusted proxy that names no client, only proxies, or something that is not an address.
  assert.equal(forwardedClient(PROXIES, '10.1.4.2:1', []), undefined);
  assert.equal(forwardedClient(PROXIES, '10.1.4.2:1', ['10.1.0.8, 127.0.0.1']), undefined);
  assert.equal(forwardedClient(PROXIES, '10.1.4.2:1', ['192.0.2.1, unknown']), undefined);
  assert.equal(forwardedClient(PROXIES, '10.1.4.2:1', ['_hidden']), undefined);
  assert.equal(forwardedClient(PROXIES, '10.1.4.2:1', ['']), undefined);
  assert.equal(forwardedClient(PROXIES, '10.1.4.2:1', [Buffer.from('192.0.2.1')]), undefined);
});

test('the caller is the API key when there is one, else the forwarded client, else the peer', () => {
  const call = (peer: string, bind: (metadata: Metadata) => void) => {
    const metadata = new Metadata();
    bind(metadata);
    return { metadata, getPeer: () => peer };
  };
  const forwardsFor = (metadata: Metadata) => metadata.set('x-forwarded-for', '203.0.113.7');
  assert.equal(callerOf(call('10.1.4.2:1', forwardsFor), PROXIES), 'peer:203.0.113.7');
  assert.equal(callerOf(call('10.1.4.2:1', (m) => { forwardsFor(m); bindKeyName(m, 'ci'); }), PROXIES), 'key:ci');
  assert.equal(callerOf(call('10.1.4.2:1', () => {}), PROXIES), 'peer:10.1.4.2');
});
