/** Fixture values, keyword by keyword: types, numbers, strings, formats, patterns, enum and const. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileSafeRegExp } from '../../src/shared/regex';
import { isMultipleOf } from '../../src/shared/validation/ajv-instance';
import { FORMAT_CHECKS, formatAccepts } from '../../src/shared/validation/format-checks';
import type { JsonValue } from '../../src/shared/json';
import { generateFor, valuesFor } from '../helpers/fixture-values';

/** A pick from 100,000 enum members: about 0.2 s on a loaded two-core machine, seconds to minutes when it was quadratic. */
const ENUM_MAX_MS = 2_000;

/** The format as validation checks it (one registry: format-checks.ts). */
function formatHolds(format: string, value: string): boolean {
  assert.ok(FORMAT_CHECKS.has(format), `validation knows format "${format}"`);
  return formatAccepts(format, value);
}

describe('fixture values: types', () => {
  it('gives each declared type', () => {
    for (const [type, check] of [
      ['string', (v: unknown) => typeof v === 'string'],
      ['integer', (v: unknown) => Number.isInteger(v)],
      ['number', (v: unknown) => typeof v === 'number'],
      ['boolean', (v: unknown) => typeof v === 'boolean'],
      ['array', (v: unknown) => Array.isArray(v)],
      ['object', (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v)],
      ['null', (v: unknown) => v === null],
    ] as const) {
      for (const value of valuesFor({ type })) assert.ok(check(value), `${type}: ${JSON.stringify(value)}`);
    }
  });

  it('reads the type from the keywords when none is declared', () => {
    for (const value of valuesFor({ properties: { a: { type: 'integer' } }, required: ['a'] })) {
      assert.equal(typeof (value as { a: unknown }).a, 'number');
    }
    for (const value of valuesFor({ items: { type: 'string' }, minItems: 1 })) assert.ok(Array.isArray(value));
    for (const value of valuesFor({ pattern: '^x+$' })) assert.match(value as string, /^x+$/);
  });

  it('gives a non-integer for number, so oneOf [integer, number] has an exclusive value', () => {
    for (const value of valuesFor({ oneOf: [{ type: 'integer' }, { type: 'number' }] })) {
      assert.equal(typeof value, 'number');
    }
    for (const value of valuesFor({ type: 'number' })) assert.ok(!Number.isInteger(value), String(value));
  });

  it('keeps to 3.1 type arrays, showing data rather than null', () => {
    for (const value of valuesFor({ type: ['string', 'null'] }, { openapi: '3.1.0' })) assert.equal(typeof value, 'string');
    for (const value of valuesFor({ type: ['null', 'integer'] }, { openapi: '3.1.0' })) assert.ok(Number.isInteger(value));
  });

  it('reads 3.0 nullable as allowing null, and still prefers a value', () => {
    for (const value of valuesFor({ type: 'string', nullable: true })) assert.equal(typeof value, 'string');
  });
});

describe('fixture values: numbers', () => {
  it('keeps inside inclusive and exclusive bounds, 3.0 boolean form', () => {
    for (const value of valuesFor({ type: 'number', minimum: 0, maximum: 1, exclusiveMinimum: true, exclusiveMaximum: true })) {
      assert.ok((value as number) > 0 && (value as number) < 1, String(value));
    }
    for (const value of valuesFor({ type: 'integer', minimum: 1, maximum: 3, exclusiveMinimum: true, exclusiveMaximum: true })) {
      assert.equal(value, 2);
    }
  });

  it('keeps inside exclusive bounds, 3.1 numeric form', () => {
    for (const value of valuesFor({ type: 'integer', exclusiveMinimum: 10, exclusiveMaximum: 13 }, { openapi: '3.1.0' })) {
      assert.ok(value === 11 || value === 12, String(value));
    }
    for (const value of valuesFor({ type: 'number', exclusiveMinimum: 0.1, maximum: 0.2 }, { openapi: '3.1.0' })) {
      assert.ok((value as number) > 0.1 && (value as number) <= 0.2, String(value));
    }
  });

  it('handles far and negative ranges', () => {
    for (const value of valuesFor({ type: 'integer', maximum: -1000 })) assert.ok((value as number) <= -1000);
    for (const value of valuesFor({ type: 'number', minimum: 1e300 })) assert.ok((value as number) >= 1e300);
    for (const value of valuesFor({ type: 'integer', minimum: 5, maximum: 5 })) assert.equal(value, 5);
  });

  it('gives multiples by the test validation runs (value / step is a whole number within rounding), decimal steps included', () => {
    for (const step of [7, 0.5, 0.1, 0.01, 0.25, 0.3]) {
      for (const value of valuesFor({ type: 'number', multipleOf: step, minimum: 1, maximum: 500 })) {
        assert.ok(isMultipleOf(value as number, step), `${value} / ${step}`);
        assert.ok((value as number) >= 1 && (value as number) <= 500);
      }
    }
    // The doubles of 19.99 and 0.01 do not divide exactly; validation takes 19.99, and so does the generator.
    for (const value of valuesFor({ type: 'number', multipleOf: 0.01, minimum: 19.99, maximum: 19.99 })) assert.equal(value, 19.99);
    for (const value of valuesFor({ type: 'integer', multipleOf: 0.5, minimum: 3 })) {
      assert.ok(Number.isInteger(value) && (value as number) >= 3);
    }
  });

  it('keeps to the int32 and int64 ranges', () => {
    for (const value of valuesFor({ type: 'integer', format: 'int32', minimum: 2147483000 })) {
      assert.ok((value as number) >= 2147483000 && (value as number) <= 2 ** 31 - 1);
    }
    for (const value of valuesFor({ type: 'integer', format: 'int64', minimum: 9007199254740000 })) {
      assert.ok(Number.isSafeInteger(value));
    }
  });

  it('reports a contradiction instead of pretending', () => {
    const generated = generateFor({ type: 'integer', minimum: 3, maximum: 2 });
    assert.equal(generated.exact, false);
    assert.match(generated.problems[0]!, /minimum, maximum, multipleOf/);
    // Past what the formats hold as validation checks them: int64 to ±2^63, float to ±3.4e38.
    for (const schema of [{ type: 'integer', format: 'int64', minimum: 1e19 }, { type: 'number', format: 'float', minimum: 1e39 }]) {
      assert.equal(generateFor(schema).exact, false, JSON.stringify(schema));
    }
  });
});

describe('fixture values: strings', () => {
  it('keeps to minLength and maxLength, counted in code points', () => {
    for (const value of valuesFor({ type: 'string', minLength: 7, maxLength: 7 })) assert.equal([...(value as string)].length, 7);
    for (const value of valuesFor({ type: 'string', minLength: 64 })) assert.ok((value as string).length >= 64);
    for (const value of valuesFor({ type: 'string', maxLength: 0 })) assert.equal(value, '');
  });

  for (const format of [
    'date-time', 'date', 'time', 'email', 'uuid', 'uri', 'uri-reference', 'uri-template', 'url', 'hostname',
    'ipv4', 'ipv6', 'byte', 'duration', 'json-pointer', 'relative-json-pointer', 'regex',
  ] as const) {
    it(`gives values validation accepts for format ${format}`, () => {
      for (const value of valuesFor({ type: 'string', format })) {
        assert.ok(formatHolds(format, value as string), `${format}: ${JSON.stringify(value)}`);
      }
    });
  }

  it('fits formats into length limits where the format allows', () => {
    for (const value of valuesFor({ type: 'string', format: 'email', maxLength: 8 })) {
      assert.ok(formatHolds('email', value as string) && (value as string).length <= 8, String(value));
    }
    for (const value of valuesFor({ type: 'string', format: 'email', minLength: 40 })) {
      assert.ok(formatHolds('email', value as string) && (value as string).length >= 40, String(value));
    }
    for (const value of valuesFor({ type: 'string', format: 'byte', maxLength: 4 })) {
      assert.ok(formatHolds('byte', value as string) && (value as string).length <= 4, String(value));
    }
    for (const value of valuesFor({ type: 'string', format: 'byte', minLength: 30 })) {
      assert.ok(formatHolds('byte', value as string) && (value as string).length >= 30, String(value));
    }
  });

  it('gives a plain string for a format it does not know', () => {
    for (const value of valuesFor({ type: 'string', format: 'phone-number' })) assert.equal(typeof value, 'string');
  });

  const patterns = [
    '^[a-z][a-z0-9_]{2,15}$',
    'github',
    '^(red|green|blue)-(light|dark)$',
    '^\\d{3}-\\w{2}\\s?[^abc]$',
    '^[0-9a-fA-F]{40}$',
    '^\\d+\\.\\d+\\.\\d+$',
    '^refs/(heads|tags|pull)/.*$',
    '^\\[[a-z]+\\]\\.\\*$',
    '^\\p{Lu}\\p{Ll}+$',
    '^[\\p{L}\\d]{3,5}$',
    '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$',
  ];
  for (const pattern of patterns) {
    it(`gives strings RE2 confirms match ${pattern}`, () => {
      const regex = compileSafeRegExp(pattern);
      for (const value of valuesFor({ type: 'string', pattern })) assert.ok(regex.test(value as string), JSON.stringify(value));
    });
  }

  it('satisfies a pattern together with length and format', () => {
    for (const value of valuesFor({ type: 'string', pattern: '^[a-z]+$', minLength: 12, maxLength: 14 })) {
      assert.match(value as string, /^[a-z]{12,14}$/);
    }
    for (const value of valuesFor({ type: 'string', format: 'email', pattern: '@example\\.com$' })) {
      assert.ok(formatHolds('email', value as string) && (value as string).endsWith('@example.com'));
    }
  });

  it('reports a pattern no string can match within its length', () => {
    const generated = generateFor({ type: 'string', pattern: '^[a-z]{10}$', maxLength: 3 });
    assert.equal(generated.exact, false);
    assert.match(generated.problems[0]!, /the pattern needs strings of 10 characters or more, longer than maxLength 3/);
    const unanchored = generateFor({ type: 'string', pattern: '[a-z]{4}', minLength: 2, maxLength: 3 });
    assert.equal(unanchored.exact, false);
    assert.match(unanchored.problems[0]!, /longer than maxLength 3/);
  });

  it('counts no length for lookaheads, nor two for an astral character, in a pattern\'s least length', () => {
    // Generated before the least length was read; refused as needing 6, 4 and 2 characters after.
    for (const schema of [
      { type: 'string', pattern: '^(?![0-9]{3}$)[a-z0-9]{3}$', maxLength: 3 },
      { type: 'string', pattern: '^(?=[a-z])[a-z0-9]{2}$', maxLength: 2 },
      { type: 'string', pattern: '^\u{1F600}$', maxLength: 1 },
    ]) {
      const generated = generateFor(schema);
      assert.equal(generated.exact, true, `${schema.pattern}: ${generated.problems.join('; ')}`);
      assert.ok([...(generated.value as string)].length <= schema.maxLength);
    }
  });

  it('counts a string drawn from a pattern once in fixtureMaxGeneratedChars', () => {
    // 4.5 million characters, within the 8 Mi budget; counted as candidate and again as value, 9 million.
    const generated = generateFor({ type: 'array', minItems: 5, maxItems: 5, items: { type: 'string', pattern: '^[a-z]{900000}$' } });
    assert.equal(generated.exact, true, generated.problems.join('; '));
    assert.equal((generated.value as string[]).join('').length, 4_500_000);
  });

  it('refuses a pattern whose fixed counts multiply past fixtureMaxStringLength before drawing from it', () => {
    // randexp built such a string for seconds, a gigabyte of it, until the fixture's time ran out.
    const started = performance.now();
    const generated = generateFor({ type: 'string', pattern: '^((a{1000}){1000}){1000}$' });
    assert.equal(generated.exact, false);
    assert.match(generated.problems[0]!, /the pattern needs strings of 1000000000 characters or more, over the fixture limit of 1048576 \(fixtureMaxStringLength\)/);
    assert.ok(performance.now() - started < 1_000);
  });
});

describe('fixture values: patterns beyond ASCII', () => {
  it('reads \\u escapes and draws from non-ASCII classes the pattern names', () => {
    for (const [pattern, extra] of [[String.raw`^[\u4e00-\u9fa5]{2,10}$`, {}], [String.raw`^\u00e9+$`, { minLength: 2 }], ['^[αβγ]{3}$', {}]] as const) {
      const expression = new RegExp(pattern, 'u');
      for (const value of valuesFor({ type: 'string', pattern, ...extra })) assert.match(value as string, expression);
    }
  });
});

describe('fixture values: enum and const', () => {
  it('picks enum members only, those that fit the rest of the schema', () => {
    for (const value of valuesFor({ type: 'string', enum: ['toolong', 'ok'], maxLength: 3 })) assert.equal(value, 'ok');
    // Formats as validation reads them: RFC 3339 date-times, UUIDs without a URN prefix.
    for (const value of valuesFor({ type: 'string', format: 'date-time', enum: ['2024-01-01 10:00:00Z', '2024-01-01T10:00:00+0100', '2024-01-01T10:00:00Z'] })) {
      assert.equal(value, '2024-01-01T10:00:00Z');
    }
    for (const value of valuesFor({ type: 'string', format: 'uuid', enum: ['urn:uuid:079fea1e-37b3-42b3-9b9c-c08d4fa8d6b2', '079fea1e-37b3-42b3-9b9c-c08d4fa8d6b2'] })) {
      assert.equal(value, '079fea1e-37b3-42b3-9b9c-c08d4fa8d6b2');
    }
    const seen = new Set(valuesFor({ enum: ['a', 'b', 'c'] }));
    assert.ok([...seen].every((v) => ['a', 'b', 'c'].includes(v as string)));
    assert.ok(seen.size > 1, 'the seed spreads the choice');
  });

  it('picks from enums of 100,000 members, and from two of them together, in about linear time', () => {
    // Each member was checked against the enum one by one: 8.5 s for 100,000 strings, 118 s for objects.
    const strings = Array.from({ length: 100_000 }, (_, i) => `v${i}`);
    const objects = Array.from({ length: 100_000 }, (_, i) => ({ id: i, kind: 'k' }));
    const reordered = objects.slice(50_000).map(({ id, kind }) => ({ kind, id })); // the same values, keys in another order
    for (const [schema, check] of [
      [{ type: 'string', enum: strings }, (v: JsonValue) => strings.includes(v as string)],
      [{ type: 'object', enum: objects }, (v: JsonValue) => (v as { id: number }).id >= 0],
      [{ allOf: [{ enum: objects }, { enum: reordered }] }, (v: JsonValue) => (v as { id: number }).id >= 50_000],
    ] as const) {
      const started = performance.now();
      const generated = generateFor(schema);
      const elapsedMs = performance.now() - started;
      assert.ok(generated.exact, generated.problems.join('; '));
      assert.ok(check(generated.value), JSON.stringify(generated.value));
      assert.ok(elapsedMs < ENUM_MAX_MS, `${Object.keys(schema).join(',')}: ${Math.round(elapsedMs)} ms`);
    }
  });

  it('prefers a non-null enum member', () => {
    for (const value of valuesFor({ type: 'string', nullable: true, enum: [null, 'x'] })) assert.equal(value, 'x');
  });

  it('gives const exactly', () => {
    for (const value of valuesFor({ const: { a: [1, 2] } }, { openapi: '3.1.0' })) assert.deepEqual(value, { a: [1, 2] });
  });

  it('steers clear of a not schema', () => {
    for (const value of valuesFor({ not: { type: 'string' } })) assert.notEqual(typeof value, 'string');
    for (const value of valuesFor({ type: 'integer', multipleOf: 2, not: { enum: [0] } })) assert.notEqual(value, 0);
  });
});
