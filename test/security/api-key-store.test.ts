/**
 * The API-key store and the reading of a presented key: every stored digest is compared on every
 * check (no early exit), expiry is exact, a reload that fails keeps the keys in force, and the
 * metadata forms are read strictly.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { ApiKeyConfigError } from '../../src/main/auth/api-key-sources';
import { LIMITS } from '../../src/shared/limits';
import { ApiKeyStore } from '../../src/main/auth/api-key-store';
import { presentedKey, withoutCredentials } from '../../src/main/auth/presented-key';
import { makeTempDir } from '../helpers/server';

function md(entries: Array<[string, string]>): grpc.Metadata {
  const metadata = new grpc.Metadata();
  for (const [name, value] of entries) metadata.add(name, value);
  return metadata;
}

describe('ApiKeyStore', () => {
  it('compares the presented digest with every stored digest, whichever matches', (t) => {
    const store = ApiKeyStore.load({ SVC_API_KEYS: 'alpha-key-1,beta-key-22,gamma-key-333' });
    const compare = t.mock.method(crypto, 'timingSafeEqual');
    for (const key of ['alpha-key-1', 'gamma-key-333', 'nobody']) {
      compare.mock.resetCalls();
      store.check(key);
      assert.equal(compare.mock.callCount(), 3, `${key}: all three digests compared`);
      for (const call of compare.mock.calls) assert.equal((call.arguments[0] as Buffer).length, 32, 'SHA-256 digests, never raw keys');
    }
  });

  it('accepts a key until its expiry and refuses it from then on, naming it', () => {
    const dir = makeTempDir('svc-keys-');
    const file = path.join(dir, 'keys.json');
    fs.writeFileSync(file, JSON.stringify([{ name: 'short-lived', key: 'short-lived-key', expiresAt: '2030-01-01T00:00:00Z' }]));
    const store = ApiKeyStore.load({ SVC_API_KEYS_FILE: file });
    const expiry = Date.parse('2030-01-01T00:00:00Z');
    assert.deepEqual(store.check('short-lived-key', expiry - 1), { ok: true, name: 'short-lived' });
    assert.deepEqual(store.check('short-lived-key', expiry), { ok: false, name: 'short-lived', detail: 'expired' });
    assert.deepEqual(store.check('short-lived-ke', expiry - 1), { ok: false, name: undefined, detail: 'unknown' });
    assert.deepEqual(store.expiredNames(expiry), ['short-lived']);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('names list keys by position and file keys by their name', () => {
    const dir = makeTempDir('svc-keys-');
    const file = path.join(dir, 'keys.json');
    fs.writeFileSync(file, JSON.stringify([{ name: 'deploy-bot', key: 'deploy-bot-key', expiresAt: 4_102_444_800 }]));
    const store = ApiKeyStore.load({ SVC_API_KEYS: ' one-key , ,two-key', SVC_API_KEYS_FILE: file });
    assert.deepEqual(store.names(), ['env-1', 'env-2', 'deploy-bot']);
    assert.deepEqual(store.check('two-key'), { ok: true, name: 'env-2' });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('names the keys shorter than apiKeyWarnBelowChars, from the list and the file', () => {
    const dir = makeTempDir('svc-keys-');
    const file = path.join(dir, 'keys.json');
    const atLimit = 'k'.repeat(LIMITS.apiKeyWarnBelowChars);
    fs.writeFileSync(file, JSON.stringify([{ name: 'tiny', key: 'abc' }, { name: 'enough', key: atLimit }]));
    const store = ApiKeyStore.load({ SVC_API_KEYS: `${atLimit.slice(1)},${atLimit}x`, SVC_API_KEYS_FILE: file });
    assert.deepEqual(store.shortNames(), ['env-1', 'tiny']);
    assert.deepEqual(store.check('abc'), { ok: true, name: 'tiny' }, 'a short key is still accepted');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the current keys when a reload fails or would leave none', () => {
    const dir = makeTempDir('svc-keys-');
    const file = path.join(dir, 'keys.json');
    fs.writeFileSync(file, JSON.stringify([{ name: 'a', key: 'key-a' }]));
    const store = ApiKeyStore.load({ SVC_API_KEYS_FILE: file });
    fs.writeFileSync(file, '[]');
    assert.throws(() => store.reload(), ApiKeyConfigError);
    fs.writeFileSync(file, '[{');
    assert.throws(() => store.reload(), /not valid JSON/);
    assert.deepEqual(store.check('key-a'), { ok: true, name: 'a' });
    fs.writeFileSync(file, JSON.stringify([{ name: 'b', key: 'key-b' }]));
    assert.deepEqual(store.reload(), { names: ['b'] });
    assert.equal(store.check('key-a').ok, false);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('presentedKey', () => {
  it('reads x-api-key and authorization: Bearer, trimming blanks', () => {
    assert.deepEqual(presentedKey(md([['x-api-key', ' k1 ']])), { kind: 'key', key: 'k1' });
    assert.deepEqual(presentedKey(md([['authorization', 'Bearer k2']])), { kind: 'key', key: 'k2' });
    assert.deepEqual(presentedKey(md([['authorization', 'BEARER   k3  ']])), { kind: 'key', key: 'k3' });
    assert.deepEqual(presentedKey(md([['x-api-key', 'k4'], ['authorization', 'Bearer k4']])), { kind: 'key', key: 'k4' });
  });

  it('treats absent and empty values as missing', () => {
    assert.deepEqual(presentedKey(new grpc.Metadata()), { kind: 'missing' });
    assert.deepEqual(presentedKey(md([['x-api-key', '']])), { kind: 'missing' });
    assert.deepEqual(presentedKey(md([['authorization', 'Bearer']])), { kind: 'missing' });
  });

  it('treats other schemes, tokens with spaces and conflicting keys as malformed', () => {
    assert.equal(presentedKey(md([['authorization', 'Basic dTpw']])).kind, 'malformed');
    assert.equal(presentedKey(md([['authorization', 'Bearer a b']])).kind, 'malformed');
    assert.equal(presentedKey(md([['x-api-key', 'k1'], ['x-api-key', 'k2']])).kind, 'malformed');
  });

  it('strips both key headers from what it hands on, leaving the rest', () => {
    const original = md([['x-api-key', 'k'], ['authorization', 'Bearer k'], ['x-request-id', 'r1']]);
    const stripped = withoutCredentials(original);
    assert.deepEqual(stripped.getMap(), { 'x-request-id': 'r1' });
    assert.equal(original.get('x-api-key')[0], 'k', 'the original is left alone');
  });
});
