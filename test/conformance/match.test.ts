/**
 * The conformance matching rules (clients/conformance/README.md, "Expectations"), each checked both
 * ways: a matcher that accepted everything would let every client pass the suite.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { findMismatches, matches } from './match';

describe('conformance matching rules', () => {
  test('scalars match by equality, with no type coercion', () => {
    assert.ok(matches('GET', 'GET'));
    assert.ok(matches(0, 0));
    assert.ok(matches(null, null));
    assert.ok(matches(false, false));
    assert.ok(!matches(1, '1'));
    assert.ok(!matches(null, undefined));
    assert.ok(!matches(false, 0));
    assert.ok(!matches('a', 'A'));
  });

  test('objects match when every expected key matches; extra actual keys are allowed', () => {
    assert.ok(matches({ valid: true }, { valid: true, errors: [] }));
    assert.ok(matches({ metadata: { schema_version: '1.0.0' } }, { metadata: { schema_version: '1.0.0', endpoint_count: 5 } }));
    assert.ok(!matches({ valid: true, errors: [] }, { valid: true }));
    assert.ok(!matches({ metadata: { schema_version: '1.0.0' } }, { metadata: { schema_version: '2.0.0' } }));
    assert.ok(!matches({}, []));
    assert.ok(!matches({ a: 1 }, null));
  });

  test('arrays match element by element and must have the same length', () => {
    assert.ok(matches([{ valid: true }, { valid: false }], [{ valid: true, errors: [] }, { valid: false, errors: ['x'] }]));
    assert.ok(!matches([{ valid: true }, { valid: false }], [{ valid: false }, { valid: true }]));
    assert.ok(!matches([1, 2], [1, 2, 3]));
    assert.ok(!matches([], {}));
  });

  test('$len checks the length of an array only', () => {
    assert.ok(matches({ $len: 2 }, [{}, 'x']));
    assert.ok(!matches({ $len: 2 }, [1]));
    assert.ok(!matches({ $len: 2 }, 'ab'));
  });

  test('$contains needs each expectation to match some element, in any order', () => {
    assert.ok(matches({ $contains: [{ id: 2 }, { id: 1 }] }, [{ id: 1, name: 'a' }, { id: 2 }, { id: 3 }]));
    assert.ok(matches({ $contains: [] }, []));
    assert.ok(!matches({ $contains: [{ id: 4 }] }, [{ id: 1 }]));
    assert.ok(!matches({ $contains: [1] }, { 0: 1 }));
  });

  test('$match searches a string with a regular expression', () => {
    assert.ok(matches({ $match: '^[0-9a-f]{64}$' }, 'a'.repeat(64)));
    assert.ok(matches({ $match: 'not found' }, 'Schema not found: x'));
    assert.ok(!matches({ $match: '^[0-9a-f]{64}$' }, 'A'.repeat(64)));
    assert.ok(!matches({ $match: '1' }, 1));
  });

  test('$nonEmpty accepts non-empty strings, arrays and objects only', () => {
    for (const value of ['x', [0], { a: null }]) assert.ok(matches({ $nonEmpty: true }, value), JSON.stringify(value));
    for (const value of ['', [], {}, 0, 7, true, null, undefined]) assert.ok(!matches({ $nonEmpty: true }, value), JSON.stringify(value));
  });

  test('$absentOrEmpty accepts a missing key or an empty value', () => {
    assert.ok(matches({ old_schema: { $absentOrEmpty: true } }, {}));
    for (const value of ['', 0, false, null, [], {}]) {
      assert.ok(matches({ old_schema: { $absentOrEmpty: true } }, { old_schema: value }), JSON.stringify(value));
    }
    for (const value of ['x', 1, true, [0], { a: 1 }]) {
      assert.ok(!matches({ old_schema: { $absentOrEmpty: true } }, { old_schema: value }), JSON.stringify(value));
    }
  });

  test('a mismatch names where it was found', () => {
    assert.deepEqual(findMismatches({ affected_consumers: [{ will_break: true }] }, { affected_consumers: [{ will_break: false }] }),
      [{ at: '/affected_consumers/0/will_break', problem: 'expected true, got false' }]);
    assert.deepEqual(findMismatches({ message: 'x' }, {}), [{ at: '/message', problem: 'missing' }]);
  });

  test('a malformed expectation is an error, not a silent match or mismatch', () => {
    assert.throws(() => matches({ $len: 1, $match: 'x' }, []), /exactly one/);
    assert.throws(() => matches({ $unknown: true }, []), /exactly one/);
    assert.throws(() => matches({ $len: 'two' }, []), /\$len needs an integer/);
  });
});
