/**
 * A keys file laid out in any wrong shape is refused without repeating any part of a key: the
 * message goes to stderr at start, and to the log and an audit line on reload (SIGHUP).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { ApiKeyStore } from '../../src/main/auth/api-key-store';
import { makeTempDir } from '../helpers/server';

const KEY = 'sk_live_Q7v2mXz9RfTw4LpK';
const dir = makeTempDir('svc-key-shapes-');
after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Every piece of the key four characters or longer found in `text`. */
function keyPieces(text: string): string[] {
  const found: string[] = [];
  for (let start = 0; start + 4 <= KEY.length; start++) if (text.includes(KEY.slice(start, start + 4))) found.push(KEY.slice(start, start + 4));
  return found;
}

test('no part of a key is repeated in the message, whatever field of the file it sits in', () => {
  const file = path.join(dir, 'keys.json');
  const good = { name: 'ci', key: 'ci-key-0123456789abcdef' };
  const cases: Array<[string, unknown, RegExp]> = [
    ['the key as a field name', [good, { [KEY]: 'bob' }], /entry 2: a field other than "name", "key", "expiresAt", "scopes", "schemas", "team" \(its name is not repeated: it may be a key\)$/],
    ['the key beside its name', [{ name: 'bob', key: 'bob-key-0123456789abc', [KEY]: true }], /entry 1: a field other than/],
    ['the key as the expiry', [{ ...good, expiresAt: KEY }], /entry 1 \("ci"\): "expiresAt" must be an ISO 8601 date-time or Unix seconds \(got text that is not a date-time\)$/],
    ['the key in a list as the expiry', [{ ...good, expiresAt: [KEY] }], /\(got a list\)$/],
  ];
  for (const [label, content, expected] of cases) {
    fs.writeFileSync(file, JSON.stringify(content));
    assert.throws(() => ApiKeyStore.load({ SVC_API_KEYS_FILE: file }), (error: Error) => {
      assert.match(error.message, expected, label);
      assert.deepEqual(keyPieces(error.message), [], `${label}: ${error.message}`);
      return true;
    });
  }
});

test('a reload that reads a key in a wrong field keeps the old keys and does not repeat the key', () => {
  const file = path.join(dir, 'reload.json');
  fs.writeFileSync(file, JSON.stringify([{ name: 'ci', key: 'ci-key-0123456789abcdef' }]));
  const store = ApiKeyStore.load({ SVC_API_KEYS_FILE: file });
  fs.writeFileSync(file, JSON.stringify([{ name: 'ci', key: 'ci-key-0123456789abcdef' }, { [KEY]: 'bob' }]));
  assert.throws(() => store.reload(), (error: Error) => keyPieces(error.message).length === 0 && /entry 2: a field other than/.test(error.message));
  assert.deepEqual(store.names(), ['ci']);
});

test('a keys file that starts with a byte order mark is read like one without', () => {
  const file = path.join(dir, 'bom.json');
  fs.writeFileSync(file, `\uFEFF${JSON.stringify([{ name: 'ci', key: KEY }])}\r\n`);
  const store = ApiKeyStore.load({ SVC_API_KEYS_FILE: file });
  assert.deepEqual(store.names(), ['ci']);
  assert.equal(store.check(KEY).ok, true);
});
