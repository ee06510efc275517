/**
 * Redaction of recorded interactions (src/shared/evidence/redaction.ts) and what an observation
 * (attributed, then described) reads from it: the field paths and the shape come from the redacted value itself, without parsing
 * the redacted text again, and must be what that text holds.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Redactor } from '@svc/client';
import { DEFAULT_REDACTED_KEYS, isRedactedKey, redactBody, redactPath } from '../../src/shared/evidence/redaction';
import { ALL_FIELDS, MAX_FIELD_PATHS_PER_BODY, fieldPaths, shapeDigest } from '../../src/shared/evidence/field-paths';
import { splitByUsedFields } from '../../src/main/evidence/field-level-impact';
import { uniteFields } from '../../src/main/storage/usage-merge';
import { describeRecordedExchange } from '../../src/shared/evidence/recorded-evidence';
import { MAX_READ_FIELDS, attributeInteraction, observationOf } from '../../src/main/evidence/observe-interaction';
import type { OperationMatcher } from '../../src/main/evidence/operation-matcher';
import type { UsageObservation } from '../../src/main/evidence/usage-registry';

const DEFAULT_KEYS: ReadonlySet<string> = new Set(DEFAULT_REDACTED_KEYS);

/** Both steps the recording service takes, on this thread. */
function observeInteraction(...[message, resolved, keys]: [...Parameters<typeof attributeInteraction>, ReadonlySet<string>]): { observation: UsageObservation } | { skipped: string } {
  const attribution = attributeInteraction(message, resolved);
  if ('skipped' in attribution) return attribution;
  return { observation: observationOf(attribution.interaction, describeRecordedExchange(attribution.interaction.exchange, keys)) };
}

test('a `__proto__` key is kept as a field, and redacted inside like any other', () => {
  const { text, value } = redactBody('{"id":1,"__proto__":{"password":"hunter2","x":1}}', DEFAULT_KEYS);
  assert.equal(text, '{"id":1,"__proto__":{"password":"[REDACTED]","x":1}}');
  assert.deepEqual(fieldPaths(value), { paths: ['id', '__proto__', '__proto__.password', '__proto__.x'], cut: false });
  assert.equal(Object.getPrototypeOf(value), Object.prototype, 'the field did not become the prototype');
});

test('query parameters named like a redacted key lose their values; the rest of the path stays as written', () => {
  assert.equal(redactPath('/users/1?access_token=SECRET123&api%5Fkey=SECRET456&page=2&x', DEFAULT_KEYS), '/users/1?access_token=[REDACTED]&api%5Fkey=[REDACTED]&page=2&x');
  assert.equal(redactPath('/a?Client+Secret=s&q=%E2%82%AC&userPassword=p&%ZZ=1', DEFAULT_KEYS), '/a?Client+Secret=[REDACTED]&q=%E2%82%AC&userPassword=[REDACTED]&%ZZ=1');
  assert.equal(redactPath('/token/abc', DEFAULT_KEYS), '/token/abc');
  const { interactionJson } = describeRecordedExchange({
    method: 'GET', path: '/users/1?access_token=SECRET123', requestHeaders: {}, requestBody: '', statusCode: 204, responseHeaders: {}, responseBody: '', readFields: undefined,
  }, DEFAULT_KEYS);
  assert.equal(JSON.parse(interactionJson).request.path, '/users/1?access_token=[REDACTED]');
});

test('the Node.js client redacts a path and a `__proto__` key as the server does', () => {
  const redactor = new Redactor();
  assert.equal(redactor.path('/users/1?access_token=SECRET123&page=2'), '/users/1?access_token=[REDACTED]&page=2');
  assert.equal(redactor.body('{"id":1,"__proto__":{"password":"hunter2","x":1}}'), '{"id":1,"__proto__":{"password":"[REDACTED]","x":1}}');
});

test('a key name is decided per list of keys', () => {
  const custom = new Set(['session']);
  for (let round = 0; round < 2; round++) {
    assert.equal(isRedactedKey('session', custom), true);
    assert.equal(isRedactedKey('session', DEFAULT_KEYS), false);
    assert.equal(isRedactedKey('X-Api-Key', DEFAULT_KEYS), true);
    assert.equal(isRedactedKey('userPassword', DEFAULT_KEYS), true);
    assert.equal(isRedactedKey('userPassword', custom), false);
  }
});

test('a body that is not JSON is dropped whole', () => {
  assert.deepEqual(redactBody('password=hunter2', DEFAULT_KEYS), { text: '', value: undefined });
  assert.deepEqual(redactBody('', DEFAULT_KEYS), { text: '', value: undefined });
});

test('a list of used fields cut at a limit ends with ALL_FIELDS: received paths past MAX_FIELD_PATHS_PER_BODY, read fields past MAX_READ_FIELDS, a stored row past maxFieldsPerKey', () => {
  const matcher = { match: () => ({ method: 'GET', path: '/wide' }) } as unknown as OperationMatcher;
  const wide = Object.fromEntries(Array.from({ length: MAX_FIELD_PATHS_PER_BODY + 100 }, (_, i) => [`f${i}`, i]));
  const observe = (readFields: string[] | undefined) => {
    const result = observeInteraction({
      consumer_id: 'web', environment: 'dev', schema_id: 'wide', valid: true, read_fields_tracked: readFields !== undefined, read_fields: readFields ?? [],
      request: { method: 'GET', path: '/wide', headers: {}, body: '' },
      response: { status_code: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(wide) },
    } as never, { version: '1.0.0', matcher }, DEFAULT_KEYS);
    assert.ok('observation' in result);
    return result.observation.usedFields;
  };
  const untracked = observe(undefined);
  assert.equal(untracked.length, MAX_FIELD_PATHS_PER_BODY + 1);
  assert.equal(untracked.at(-1), ALL_FIELDS);
  // Before, f599 was in no list and its removal was set aside as unreached: SAFE.
  const removed = { description: 'GET /wide: response 200 field "f599" was removed (at #/paths/~1wide/get)' } as never;
  assert.deepEqual(splitByUsedFields([removed], () => untracked).reached, [removed]);

  const allRead = Array.from({ length: MAX_READ_FIELDS + 20 }, (_, i) => `f${i}`);
  assert.deepEqual(observe(allRead), [...allRead.slice(0, MAX_READ_FIELDS), ALL_FIELDS]);
  assert.deepEqual(observe(allRead.slice(0, MAX_READ_FIELDS)), allRead.slice(0, MAX_READ_FIELDS), 'at the limit, nothing was cut');

  const united = uniteFields({ usedFields: ['a', 'b'], receivedFields: [] }, { usedFields: ['b', 'c', 'd'], receivedFields: ['e'] }, 3);
  assert.deepEqual(united, { usedFields: [ALL_FIELDS, 'a', 'b', 'c'], receivedFields: [] });
  assert.deepEqual(uniteFields(united, { usedFields: ['a'], receivedFields: [] }, 3).usedFields, [ALL_FIELDS, 'a', 'b'], 'the mark is kept');
});

test('the observation\'s fields and shape are those of the redacted text it stores', () => {
  const matcher = { match: () => ({ method: 'POST', path: '/users' }) } as unknown as OperationMatcher;
  const users = Array.from({ length: 50 }, (_, i) => ({ id: i, name: `n${i}`, token: `t${i}`, tags: i % 2 ? ['a'] : [], nested: { apiKey: 'k', deep: [{ v: null }] } }));
  const result = observeInteraction({
    consumer_id: 'web', environment: 'dev', schema_id: 'users', valid: true, read_fields_tracked: false, read_fields: [],
    request: { method: 'post', path: '/users', headers: { authorization: 'Bearer x' }, body: JSON.stringify({ password: 'p', name: 'n' }) },
    response: { status_code: 201, headers: { 'content-type': 'application/json' }, body: JSON.stringify(users) },
  } as never, { version: '1.0.0', matcher }, DEFAULT_KEYS);
  assert.ok('observation' in result);
  const { observation } = result;
  const stored = JSON.parse(observation.interactionJson) as { request: { method: string; body: string }; response: { body: string } };
  assert.doesNotMatch(observation.interactionJson, /Bearer x|"k"|t1/);
  const requestValue = JSON.parse(stored.request.body);
  const responseValue = JSON.parse(stored.response.body);
  assert.deepEqual(observation.usedFields, fieldPaths(responseValue).paths);
  assert.equal(observation.shape, shapeDigest([stored.request.method, requestValue, 201, responseValue]));
  assert.ok(observation.usedFields.includes('[].nested.apiKey'));
});
