/**
 * The API-key store and the reading of a presented key: a key is found by its digest in one lookup
 * (a scan of every digest held the main thread with many keys), expiry is exact, a reload that
 * fails keeps the keys in force, and the metadata forms are read strictly.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { ApiKeyConfigError } from '../../src/main/auth/api-key-sources';
import { LIMITS } from '../../src/shared/limits';
import { ApiKeyStore, listedKeyNames } from '../../src/main/auth/api-key-store';
import { presentedKey, withoutCredentials } from '../../src/main/auth/presented-key';
import { makeTempDir } from '../helpers/server';

function md(entries: Array<[string, string]>): grpc.Metadata {
  const metadata = new grpc.Metadata();
  for (const [name, value] of entries) metadata.add(name, value);
  return metadata;
}

describe('ApiKeyStore', () => {
  it('looks the presented key up by its SHA-256 digest: one hash per check, however many keys', (t) => {
    const keys = Array.from({ length: 20_000 }, (_, i) => `key-${i}-${'x'.repeat(16)}`);
    const store = ApiKeyStore.load({ SVC_API_KEYS: keys.join(',') });
    const hash = t.mock.method(crypto, 'hash');
    const compare = t.mock.method(crypto, 'timingSafeEqual');
    for (const [key, expected] of [[keys[0]!, true], [keys.at(-1)!, true], [keys[12_345]!, true], ['nobody-at-all-here', false]] as const) {
      hash.mock.resetCalls();
      const verdict = store.check(key);
      assert.equal(verdict.ok, expected, key);
      assert.equal(hash.mock.callCount(), 1, `${key}: hashed once`);
      assert.equal(hash.mock.calls[0]!.arguments[0], 'sha256');
    }
    assert.equal(compare.mock.callCount(), 0, 'no scan of the stored digests');
    assert.deepEqual(store.check(keys[7]!), { ok: true, name: 'env-8' }, 'listed keys are named by position');
  });

  it('names at most 50 keys in a log or audit line, then how many more', () => {
    const names = Array.from({ length: 120 }, (_, i) => `k${i}`);
    assert.deepEqual(listedKeyNames(names.slice(0, 3)), ['k0', 'k1', 'k2']);
    const listed = listedKeyNames(names);
    assert.equal(listed.length, 51);
    assert.deepEqual(listed.slice(0, 2), ['k0', 'k1']);
    assert.equal(listed.at(-1), '… and 70 more');
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
