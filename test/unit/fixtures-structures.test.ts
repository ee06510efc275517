/**
 * Fixture values, keyword by keyword: arrays, objects, composition (allOf/oneOf/anyOf and
 * discriminators), readOnly/writeOnly, and recursive schemas.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonValue } from '../../src/shared/json';
import { LIMITS } from '../../src/shared/limits';
import { asObject, generateFor, valuesFor } from '../helpers/fixture-values';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

describe('fixture values: arrays', () => {
  it('keeps the item count within minItems and maxItems', () => {
    for (const value of valuesFor({ type: 'array', items: { type: 'integer' }, minItems: 3, maxItems: 4 })) {
      assert.ok((value as unknown[]).length >= 3 && (value as unknown[]).length <= 4);
    }
    for (const value of valuesFor({ type: 'array', items: { type: 'integer' }, maxItems: 0 })) assert.deepEqual(value, []);
  });

  it('gives distinct items for uniqueItems, even from a small enum', () => {
    for (const value of valuesFor({ type: 'array', items: { enum: ['red', 'green', 'blue'] }, minItems: 3, uniqueItems: true })) {
      assert.equal(new Set(value as string[]).size, 3);
    }
    for (const value of valuesFor({ type: 'array', items: { type: 'integer', minimum: 1, maximum: 4 }, minItems: 4, uniqueItems: true })) {
      assert.deepEqual([...(value as number[])].sort(), [1, 2, 3, 4]);
    }
  });

  it('reports uniqueItems that minItems makes impossible', () => {
    const generated = generateFor({ type: 'array', items: { type: 'boolean' }, minItems: 3, uniqueItems: true });
    assert.equal(generated.exact, false);
    assert.match(generated.problems[0]!, /uniqueItems/);
  });

  it('follows 3.1 prefixItems and contains', () => {
    const tuple = { type: 'array', prefixItems: [{ type: 'number' }, { const: 'wgs84' }], items: false };
    for (const value of valuesFor(tuple, { openapi: '3.1.0' })) {
      const [first, second, ...rest] = value as unknown[];
      assert.equal(typeof first, 'number');
      assert.equal(second, 'wgs84');
      assert.equal(rest.length, 0);
    }
    for (const value of valuesFor({ type: 'array', items: { type: 'string' }, contains: { const: 'special' } }, { openapi: '3.1.0' })) {
      assert.ok((value as string[]).includes('special'));
    }
  });
});

describe('fixture values: objects', () => {
  it('always gives required properties and the declared optional ones, in declared order', () => {
    const schema = {
      type: 'object',
      required: ['b'],
      properties: { a: { type: 'string' }, b: { type: 'integer' }, c: { type: 'boolean' } },
    };
    for (const value of valuesFor(schema)) assert.deepEqual(Object.keys(asObject(value)), ['a', 'b', 'c']);
  });

  it('leaves out an optional property no valid value exists for', () => {
    const schema = {
      type: 'object',
      properties: { fine: { type: 'string' }, impossible: { type: 'string', minLength: 5, maxLength: 2 }, never: false },
    };
    for (const value of valuesFor(schema, { openapi: '3.1.0' })) assert.deepEqual(Object.keys(asObject(value)), ['fine']);
  });

  it('leaves out an optional property that a `not` forbids beside another (mutually exclusive properties)', () => {
    const exclusive = { type: 'object', properties: { email: { type: 'string', format: 'email' }, phone: { type: 'string' } }, not: { required: ['email', 'phone'] } };
    for (const value of valuesFor(exclusive)) {
      const keys = Object.keys(value as object);
      assert.ok(!(keys.includes('email') && keys.includes('phone')), JSON.stringify(value));
    }
    const forbidden = { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'integer' } }, required: ['a'], not: { required: ['b'] } };
    for (const value of valuesFor(forbidden)) assert.deepEqual(Object.keys(value as object), ['a']);
  });

  it('keeps within maxProperties, required first, and reaches minProperties', () => {
    const bounded = {
      type: 'object',
      required: ['only'],
      maxProperties: 1,
      properties: { other: { type: 'boolean' }, only: { type: 'boolean' } },
    };
    for (const value of valuesFor(bounded)) assert.deepEqual(Object.keys(asObject(value)), ['only']);
    for (const value of valuesFor({ type: 'object', additionalProperties: { type: 'integer' }, minProperties: 3 })) {
      const entries = Object.values(asObject(value));
      assert.equal(entries.length, 3);
      assert.ok(entries.every(Number.isInteger));
    }
  });

  it('names map entries from a propertyNames enum, each name once', () => {
    const map = { type: 'object', additionalProperties: { type: 'integer' }, minProperties: 2, propertyNames: { enum: ['k1', 'zz'] } };
    for (const value of valuesFor(map)) assert.deepEqual(Object.keys(asObject(value)).sort(), ['k1', 'zz']);
  });

  it('shows one entry of a map, named by propertyNames or patternProperties when given', () => {
    for (const value of valuesFor({ type: 'object', additionalProperties: { type: 'string' } })) {
      assert.equal(Object.keys(asObject(value)).length, 1);
    }
    for (const value of valuesFor({ type: 'object', propertyNames: { pattern: '^[a-z]{3,6}$' }, additionalProperties: { type: 'integer' }, minProperties: 2 }, { openapi: '3.1.0' })) {
      assert.ok(Object.keys(asObject(value)).every((name) => /^[a-z]{3,6}$/.test(name)));
    }
    for (const value of valuesFor({ type: 'object', patternProperties: { '^x-[a-z]+$': { type: 'string' } }, additionalProperties: false })) {
      assert.ok(Object.keys(asObject(value)).every((name) => /^x-[a-z]+$/.test(name)));
    }
  });

  it('writes reserved names such as __proto__ as plain own properties', () => {
    // A computed key: a literal `__proto__:` would set the test object's prototype instead.
    const properties = { ['__proto__']: { type: 'integer' }, constructor: { type: 'string' } };
    const value = asObject(generateFor({ type: 'object', required: ['__proto__', 'constructor'], properties }).value);
    assert.equal(Object.getPrototypeOf(value), Object.prototype);
    assert.deepEqual(Object.keys(value), ['__proto__', 'constructor']);
    assert.match(JSON.stringify(value), /^\{"__proto__":-?\d+,"constructor":"[a-z-]+"\}$/);
  });
});

describe('fixture values: readOnly and writeOnly', () => {
  const schemas = {
    Secret: { type: 'string', writeOnly: true },
    Account: {
      type: 'object',
      required: ['id', 'password', 'owner', 'apiKey'],
      properties: {
        id: { type: 'integer', readOnly: true },
        owner: { type: 'string' },
        password: { type: 'string', writeOnly: true },
        apiKey: ref('Secret'),
      },
    },
  };

  it('leaves readOnly properties out of requests, even required ones', () => {
    for (const value of valuesFor(ref('Account'), { schemas, direction: 'request' })) {
      assert.deepEqual(Object.keys(asObject(value)), ['owner', 'password', 'apiKey']);
    }
  });

  it('leaves writeOnly properties out of responses, also when the $ref target carries the marker', () => {
    for (const value of valuesFor(ref('Account'), { schemas, direction: 'response' })) {
      assert.deepEqual(Object.keys(asObject(value)), ['id', 'owner']);
    }
  });
});

describe('fixture values: composition', () => {
  it('merges allOf members: properties, required lists and the tighter bounds', () => {
    const schemas = {
      Named: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 3 } } },
      Stamped: { type: 'object', required: ['at'], properties: { at: { type: 'string', format: 'date-time' } } },
    };
    const merged = { allOf: [ref('Named'), ref('Stamped'), { properties: { name: { maxLength: 4 } } }] };
    for (const value of valuesFor(merged, { schemas })) {
      const object = asObject(value);
      assert.ok((object.name as string).length >= 3 && (object.name as string).length <= 4);
      assert.equal(typeof object.at, 'string');
    }
  });

  it('respects an allOf member that closes the property set', () => {
    const schema = {
      allOf: [
        { type: 'object', additionalProperties: false, required: ['a'], properties: { a: { type: 'string' }, b: { type: 'integer' } } },
        { type: 'object', properties: { a: { minLength: 4 }, c: { type: 'boolean' } } },
      ],
    };
    for (const value of valuesFor(schema)) {
      const object = asObject(value);
      assert.ok(!('c' in object));
      assert.ok((object.a as string).length >= 4);
    }
  });

  it('gives a oneOf value that exactly one branch accepts', () => {
    const shape = {
      oneOf: [
        { type: 'object', required: ['radius'], properties: { radius: { type: 'number' } } },
        { type: 'object', required: ['side'], additionalProperties: false, properties: { side: { type: 'number' } } },
      ],
    };
    for (const value of valuesFor(shape)) assert.ok('radius' in asObject(value) !== 'side' in asObject(value));
    for (const value of valuesFor({ oneOf: [{ type: 'string', format: 'uuid' }, { type: 'string' }] })) {
      assert.ok(!/^[0-9a-f-]{36}$/.test(value as string), 'a uuid would match both branches');
    }
  });

  it('tells overlapping oneOf objects apart with a property only one branch accepts', () => {
    const schema = {
      oneOf: [
        { type: 'object', properties: { a: { type: 'string' }, b: { type: 'string' } } },
        { type: 'object', properties: { c: { type: 'string' }, d: { type: 'string' } } },
      ],
    };
    for (const value of valuesFor(schema)) {
      const object = asObject(value);
      const firstOnly = typeof object.a === 'string' && (object.c !== undefined && typeof object.c !== 'string');
      const secondOnly = typeof object.c === 'string' && (object.a !== undefined && typeof object.a !== 'string');
      assert.ok(firstOnly || secondOnly, JSON.stringify(object));
    }
  });

  it('gives a oneOf value exactly one branch accepts when the branches overlap on strings or numbers', () => {
    for (const value of valuesFor({ oneOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'string', pattern: '^[a-c]$' }] })) assert.equal(value, 'c');
    for (const value of valuesFor({ oneOf: [{ type: 'integer', multipleOf: 2 }, { type: 'integer', multipleOf: 3 }], minimum: 1, maximum: 100 })) {
      assert.ok(Number.isInteger(value) && ((value as number) % 2 === 0) !== ((value as number) % 3 === 0), String(value));
    }
  });

  it('gives an anyOf value some branch accepts, and prefers data to null', () => {
    for (const value of valuesFor({ anyOf: [{ type: 'null' }, { type: 'string', maxLength: 3 }] }, { openapi: '3.1.0' })) {
      assert.ok(typeof value === 'string' && value.length <= 3);
    }
  });

  it('sets the discriminator to the mapping key of the chosen branch', () => {
    const schemas = {
      Pet: {
        type: 'object',
        required: ['petType'],
        properties: { petType: { type: 'string' } },
        discriminator: { propertyName: 'petType', mapping: { cat: '#/components/schemas/Cat', dog: 'Dog' } },
        oneOf: [ref('Cat'), ref('Dog')],
      },
      Cat: { type: 'object', required: ['petType', 'claws'], properties: { petType: { type: 'string' }, claws: { type: 'boolean' } } },
      Dog: { type: 'object', required: ['petType', 'bark'], properties: { petType: { type: 'string' }, bark: { type: 'boolean' } } },
    };
    for (const value of valuesFor(ref('Pet'), { schemas })) {
      const object = asObject(value);
      assert.ok((object.petType === 'cat' && 'claws' in object) || (object.petType === 'dog' && 'bark' in object), JSON.stringify(object));
    }
  });

  it('names a subtype reached through allOf inheritance by its schema name', () => {
    const schemas = {
      Animal: { type: 'object', required: ['kind'], properties: { kind: { type: 'string' } }, discriminator: { propertyName: 'kind' } },
      Bird: { allOf: [ref('Animal'), { type: 'object', required: ['wings'], properties: { wings: { type: 'integer' } } }] },
    };
    for (const value of valuesFor({ oneOf: [ref('Bird')], discriminator: { propertyName: 'kind' } }, { schemas })) {
      assert.equal(asObject(value).kind, 'Bird');
    }
  });

  it('refuses an allOf of types that exclude each other', () => {
    const generated = generateFor({ allOf: [{ type: 'string' }, { type: 'integer' }] });
    assert.equal(generated.exact, false);
    assert.match(generated.problems[0]!, /no value satisfies the schema/);
  });
});

describe('fixture values: recursion', () => {
  it('cuts self-recursion to required content after one re-entry', () => {
    const schemas = {
      Node: { type: 'object', required: ['name', 'children'], properties: { name: { type: 'string' }, children: { type: 'array', items: ref('Node') } } },
    };
    for (const value of valuesFor(ref('Node'), { schemas })) {
      let depth = 0;
      let node = asObject(value);
      while ((node.children as JsonValue[]).length > 0) {
        node = asObject((node.children as JsonValue[])[0]!);
        depth++;
      }
      assert.ok(depth <= 1 + LIMITS.fixtureMaxRefReentries, `depth ${depth}`);
    }
  });

  it('ends a required recursion through nullable with null', () => {
    const schemas = {
      List: { type: 'object', required: ['next'], properties: { next: { allOf: [ref('List')], nullable: true } } },
    };
    for (const value of valuesFor(ref('List'), { schemas })) assert.match(JSON.stringify(value), /"next":null/);
  });

  it('takes the branch that ends a recursive oneOf', () => {
    const schemas = {
      Expr: { oneOf: [ref('Binary'), ref('Literal')] },
      Literal: { type: 'object', additionalProperties: false, required: ['n'], properties: { n: { type: 'number' } } },
      Binary: { type: 'object', additionalProperties: false, required: ['l', 'r'], properties: { l: ref('Expr'), r: ref('Expr') } },
    };
    for (const value of valuesFor(ref('Expr'), { schemas })) assert.ok(JSON.stringify(value).length < 2000);
  });

  it('reports a recursion no finite value can end, at the depth limit', () => {
    const schemas = { Loop: { type: 'object', required: ['self'], properties: { self: ref('Loop') } } };
    const generated = generateFor(ref('Loop'), 'seed', { schemas });
    assert.equal(generated.exact, false);
    assert.match(generated.problems[0]!, /fixtureMaxValueDepth/);
  });
});

describe('fixture values: examples', () => {
  it('uses a schema or property example only when it is valid', () => {
    const schema = {
      type: 'object',
      required: ['team'],
      properties: { team: { type: 'string', example: 'platform' }, size: { type: 'integer', minimum: 1, example: 0 } },
    };
    for (const value of valuesFor(schema, { useExamples: true })) {
      const object = asObject(value);
      assert.equal(object.team, 'platform');
      assert.ok((object.size as number) >= 1);
    }
    for (const value of valuesFor({ ...schema, example: { team: 12 } }, { useExamples: true })) assert.equal(asObject(value).team, 'platform');
    for (const value of valuesFor(schema)) assert.notEqual(asObject(value).team, 'platform');
  });

  it('takes 3.1 examples arrays, and drops readOnly properties from an example used in a request', () => {
    const schema = {
      type: 'object',
      properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' } },
      examples: [{ id: 'not an integer', name: 'x' }, { id: 7, name: 'Ada' }],
    };
    for (const value of valuesFor(schema, { openapi: '3.1.0', useExamples: true, direction: 'request' })) {
      assert.deepEqual(value, { name: 'x' });
    }
    for (const value of valuesFor(schema, { openapi: '3.1.0', useExamples: true, direction: 'response' })) {
      assert.deepEqual(value, { id: 7, name: 'Ada' });
    }
  });
});
