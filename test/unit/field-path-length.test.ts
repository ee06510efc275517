/**
 * Recorded field paths are bounded in length. A body whose keys sit under one 17,000-character key
 * listed 499 paths of one length over 16 Ki characters, which V8 hashes by their length alone: each
 * interaction's fields, united with its usage row's on the main thread (usage-merge.ts), compared
 * them all, and 10 such interactions held other callers' calls up to 237 ms. A path over
 * MAX_FIELD_PATH_CHARS is not listed, and the list counts as cut: used fields then end with `*`,
 * which reaches every field.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ALL_FIELDS, MAX_FIELD_PATH_CHARS, fieldPaths } from '../../src/shared/evidence/field-paths';
import { describeRecordedExchange } from '../../src/shared/evidence/recorded-evidence';
import { SERVER_REDACTED_KEYS } from '../../src/shared/evidence/redaction';
import { uniteFields } from '../../src/main/storage/usage-merge';

const under = (key: string, fields: number) => ({ [key]: Object.fromEntries(Array.from({ length: fields }, (_, i) => [`f${String(i).padStart(4, '0')}`, 1])) });

test('a field path over MAX_FIELD_PATH_CHARS is not listed, nor those under it, and the list is cut', () => {
  const long = 'p'.repeat(17_000);
  assert.deepEqual(fieldPaths({ id: 1, ...under(long, 499) }), { paths: ['id'], cut: true });
  // At the limit it is listed.
  const atLimit = 'q'.repeat(MAX_FIELD_PATH_CHARS);
  assert.deepEqual(fieldPaths({ [atLimit]: 1 }), { paths: [atLimit], cut: false });
  assert.deepEqual(fieldPaths({ [`${atLimit}x`]: 1 }), { paths: [], cut: true });
});

test('recorded evidence of such a body uses every field, and unites in linear time', () => {
  const exchange = (k: number) => ({
    method: 'GET', path: '/users', requestHeaders: {}, requestBody: '', statusCode: 200,
    responseHeaders: { 'content-type': 'application/json' }, responseBody: JSON.stringify(under(`${'p'.repeat(17_000)}${k}`, 499)), readFields: undefined,
  });
  const first = describeRecordedExchange(exchange(1), SERVER_REDACTED_KEYS);
  assert.deepEqual(first.usedFields, [ALL_FIELDS], 'no field known: every one counts as used');
  const second = describeRecordedExchange(exchange(2), SERVER_REDACTED_KEYS);
  const started = performance.now();
  const united = uniteFields(first, second, 500);
  assert.deepEqual(united.usedFields, [ALL_FIELDS]);
  assert.ok(performance.now() - started < 150, 'united at once'); // about 330 ms before, microseconds now
});
