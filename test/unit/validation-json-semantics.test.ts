/**
 * Values as JSON Schema means them, not as JavaScript happens to hold them: numbers (`multipleOf`
 * with decimal steps, the ranges of OpenAPI's int64 and float formats, numbers no double holds),
 * and a property named __proto__ (AJV's `properties` passes over that name).
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { ErrorCode, isSvcError } from '../../src/shared/errors';
import type { CompiledContract } from '../../src/shared/validation';
import { assertInvalid, assertValid, request, textContract } from '../helpers/validation-contracts';

const PROPERTIES = {
  price: { type: 'number', multipleOf: 0.01 },
  tenth: { type: 'number', multipleOf: 0.1 },
  even: { type: 'integer', multipleOf: 2 },
  quarter: { type: 'number', multipleOf: 2.5 },
  id: { type: 'integer', format: 'int64' },
  ratio: { type: 'number', format: 'float' },
};

/** A document with one POST /orders taking `schema`. */
function postDocument(schema: object, openapi = '3.0.3'): string {
  return JSON.stringify({
    openapi,
    info: { title: 'values', version: '1.0.0' },
    paths: { '/orders': { post: { requestBody: { required: true, content: { 'application/json': { schema } } }, responses: { 204: { description: 'stored' } } } } },
  });
}

/** Posts a body given as JSON text, so that values reach the validator as a client wrote them. */
function postTo(contract: CompiledContract, body: string) {
  return contract.validateInteraction({ request: request('POST', '/orders', { headers: { 'content-type': 'application/json' }, body }) });
}

describe('numbers', () => {
  let contract: CompiledContract;
  before(async () => {
    ({ contract } = await textContract(postDocument({ type: 'object', properties: PROPERTIES })));
  });
  const post = (body: string) => postTo(contract, body);

  it('multipleOf: decimal steps whose quotient is an integer though the doubles do not divide exactly', () => {
    for (const body of [
      '{"price":19.99}', '{"price":0.07}', '{"price":1234567.89}', '{"price":4.35}', '{"tenth":0.3}', '{"tenth":0.7}', '{"tenth":-2.3}',
      '{"even":10}', '{"even":1000000000002}', '{"quarter":7.5}', '{"price":1e20}', '{"tenth":0}', '{"tenth":0.000003e5}',
    ]) {
      assertValid(post(body));
    }
  });

  it('multipleOf: what is not a multiple stays invalid', () => {
    assertInvalid(post('{"tenth":0.35}'), 'request_invalid', 'request body /tenth: must be a multiple of 0.1');
    assertInvalid(post('{"tenth":0.3000001}'), 'request_invalid', 'request body /tenth: must be a multiple of 0.1');
    assertInvalid(post('{"price":19.995}'), 'request_invalid', 'request body /price: must be a multiple of 0.01');
    assertInvalid(post('{"even":7}'), 'request_invalid', 'request body /even: must be a multiple of 2');
    assertInvalid(post('{"quarter":1}'), 'request_invalid', 'request body /quarter: must be a multiple of 2.5');
    // Far from the doubles' rounding error: a half step at 10^12, a value under any step.
    assertInvalid(post('{"even":1000000000001}'), 'request_invalid', 'request body /even: must be a multiple of 2');
    assertInvalid(post('{"price":12345678901.005}'), 'request_invalid', 'request body /price: must be a multiple of 0.01');
    assertInvalid(post('{"tenth":1e-13}'), 'request_invalid', 'request body /tenth: must be a multiple of 0.1');
  });

  it('int64: integers beyond 2^63 are refused', () => {
    assertValid(post('{"id":9007199254740993}'));
    assertValid(post('{"id":-9223372036854775808}'));
    assertInvalid(post('{"id":99999999999999999999}'), 'request_invalid', 'request body /id: must match format "int64"');
    assertInvalid(post('{"id":-1e19}'), 'request_invalid', 'request body /id: must match format "int64"');
  });

  it('float: values beyond single precision are refused', () => {
    assertValid(post('{"ratio":3.4e38}'));
    assertValid(post('{"ratio":-1.5}'));
    assertInvalid(post('{"ratio":1e39}'), 'request_invalid', 'request body /ratio: must match format "float"');
  });
});

describe('numbers no double holds', () => {
  let contract: CompiledContract;
  before(async () => {
    const document = JSON.parse(postDocument({
      type: 'object',
      properties: { n: { type: 'number', exclusiveMinimum: true, minimum: 0 }, i: { type: 'integer' }, tree: { type: 'object' } },
    }));
    document.paths['/orders'].post.parameters = [
      { name: 'limit', in: 'query', schema: { type: 'number', maximum: 10 } },
      { name: 'alt', in: 'query', schema: { oneOf: [{ type: 'number' }, { type: 'boolean' }] } },
      { name: 'filter', in: 'query', schema: { type: 'array', items: { type: 'object' } } },
    ];
    const json = document.paths['/orders'].post.requestBody.content['application/json'];
    json.schema.properties.either = { oneOf: [{ type: 'number' }, { type: 'boolean' }] };
    document.paths['/orders'].post.requestBody.content['application/x-www-form-urlencoded'] = json;
    document.paths['/raw'] = { post: { requestBody: { content: { 'application/json': {} } }, responses: { 204: { description: 'stored' } } } };
    ({ contract } = await textContract(JSON.stringify(document)));
  });
  const validate = (body: string, query = '', contentType = 'application/json') =>
    contract.validateInteraction({ request: request('POST', `/orders${query}`, { headers: { 'content-type': contentType }, body }) });
  const assertUncheckable = (run: () => unknown, message: string) =>
    assert.throws(run, (error) => isSvcError(error) && error.code === ErrorCode.LIMIT_EXCEEDED && error.message === message);
  const outside = (place: string, number: string) =>
    `${place} could not be checked: the number ${number} is outside what a double holds (magnitudes from 5e-324 to 1.8e308)`;

  it('a body number read as Infinity or as 0 gets no verdict: the call fails naming it', () => {
    // JavaScript reads these as Infinity, -Infinity and 0: `i` would pass as an integer, `n` fail `> 0`.
    assertUncheckable(() => validate('{"i":1e400}'), outside('request body', '1e400'));
    assertUncheckable(() => validate('{"i":-1E+400}'), outside('request body', '-1E+400'));
    assertUncheckable(() => validate('{"n":1e-400}'), outside('request body', '1e-400'));
    assertUncheckable(() => validate(`{"n":0.${'0'.repeat(400)}1}`), outside('request body', `0.${'0'.repeat(38)}…`));
    assertUncheckable(() => validate(`{"i":1${'0'.repeat(400)}}`), outside('request body', `1${'0'.repeat(39)}…`));
  });

  it('numbers a double holds, zeros with large exponents and numbers inside strings are checked as before', () => {
    assertValid(validate('{"n":1.7e308,"i":1e300}'));
    assertValid(validate('{"n":4.9e-324}'));
    assertValid(validate(`{"i":1${'0'.repeat(250)}}`));
    assertInvalid(validate('{"n":0e400}'), 'request_invalid', 'request body /n: must be > 0');
    assertInvalid(validate('{"i":"1e400 9e999"}'), 'request_invalid', 'request body /i: must be integer');
  });

  it('parameters and form fields: the same', () => {
    assertUncheckable(() => validate('{}', '?limit=-1e400'), outside('parameter "limit" in query', '-1e400'));
    assertInvalid(validate('{}', '?limit=1e300'), 'request_invalid', 'parameter "limit" in query: value "1e300" must be <= 10');
    const form = 'application/x-www-form-urlencoded';
    assertUncheckable(() => validate('n=1e-999', '', form), outside('request body field "n"', '1e-999'));
    assertUncheckable(() => validate(`tree=${encodeURIComponent('{"a":[1,2e400]}')}`, '', form), outside('request body field "tree"', '2e400'));
    assertValid(validate(`n=2e-300&tree=${encodeURIComponent('{"a":1e300}')}`, '', form));
  });

  it('under a union of types, in JSON inside a parameter, and in a form field of a union: the same', () => {
    // These read "must be integer" or "must be object": the number fell back to text.
    assertUncheckable(() => validate('{}', '?alt=1e400'), outside('parameter "alt" in query', '1e400'));
    assertUncheckable(() => validate('{}', `?filter=${encodeURIComponent('{"a":1e400}')}`), outside('parameter "filter" in query', '1e400'));
    assertUncheckable(() => validate('either=-1e999', '', 'application/x-www-form-urlencoded'), outside('request body field "either"', '-1e999'));
    assertValid(validate('{}', `?alt=7&filter=${encodeURIComponent('{"a":1e300}')}`));
  });

  it('a body of a JSON media type without a schema is JSON whatever its numbers: valid', () => {
    assertValid(contract.validateInteraction({ request: request('POST', '/raw', { headers: { 'content-type': 'application/json' }, body: '{"big":1e400}' }) }));
  });

  it('a form field read as JSON is held to the body depth limit (it reached the stack before)', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    assertInvalid(validate(`tree=${encodeURIComponent(deep)}`, '', 'application/x-www-form-urlencoded'), 'request_invalid', 'request body field "tree": value nests arrays/objects deeper than the limit of 256 levels (maxBodyDepth)');
  });
});

describe('a property named __proto__', () => {
  it('is checked against its schema, counts as declared, and can be required', async () => {
    // The document as text: an object literal would set the prototype instead of a property.
    const schema = '{"type":"object","properties":{"__proto__":{"type":"integer"},"id":{"type":"integer"}},"required":["__proto__"],"additionalProperties":false}';
    const { contract } = await textContract(postDocument({}).replace('"schema":{}', `"schema":${schema}`));
    assertValid(postTo(contract, '{"__proto__":3,"id":1}'));
    assertInvalid(postTo(contract, '{"__proto__":"x"}'), 'request_invalid', 'request body /__proto__: must be integer');
    assertInvalid(postTo(contract, '{"id":1}'), 'request_invalid', 'request body: property "__proto__" is required');
  });

  it('keeps the schema\'s own patternProperties (OpenAPI 3.1)', async () => {
    const schema = '{"type":"object","patternProperties":{"^n_":{"type":"number"}},"properties":{"__proto__":{"type":"string"}},"additionalProperties":false}';
    const { contract } = await textContract(postDocument({}, '3.1.0').replace('"schema":{}', `"schema":${schema}`));
    assertValid(postTo(contract, '{"__proto__":"a","n_1":2}'));
    assertInvalid(postTo(contract, '{"__proto__":1,"n_1":"b"}'), 'request_invalid', 'request body /n_1: must be number', 'request body /__proto__: must be string');
  });
});
