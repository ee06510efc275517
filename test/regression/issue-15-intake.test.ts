/**
 * Issue 15, registration: documents real tools accept register, and every leniency is reported
 * with a JSON pointer. U+FFFD is a character; ECMA-262 patterns RE2 cannot run never refuse a
 * document (the JavaScript engine runs those the ReDoS analyser proves safe, the others are not
 * enforced); clear deviations are read leniently; unsafe or senseless documents stay refused.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { describe, test } from 'node:test';
import { loadSchema } from '../../src/shared/openapi/load-document';
import { CompiledContract } from '../../src/shared/validation/compiled-contract';
import { fixturePath } from '../helpers/paths';

const read = (name: string) => fs.readFileSync(fixturePath('real-world', name), 'utf8');
const recheckInstalled = (() => {
  try {
    createRequire(__filename).resolve('recheck');
    return true;
  } catch {
    return false;
  }
})();

const PROPERTY = '/paths/~1environments/post/requestBody/content/application~1json/schema/properties';

describe('issue 15: registration of real-world documents', () => {
  test('a literal U+FFFD in the text registers; invalid UTF-8 bytes are refused', async () => {
    const text = read('replacement-character.yaml');
    assert.ok(text.includes('\uFFFD'));
    const loaded = await loadSchema(text);
    assert.match(String((loaded.document.info as { title: string }).title), /Caf\uFFFD API/);
    assert.deepEqual(loaded.warnings, []);
    assert.ok((await loadSchema(Buffer.from(text, 'utf8'))).document.info);
    const broken = Buffer.concat([Buffer.from('openapi: 3.0.3\ninfo: { title: "'), Buffer.from([0xc3, 0x28]), Buffer.from('", version: 1.0.0 }\npaths: {}\n')]);
    await assert.rejects(loadSchema(broken), { message: 'Invalid schema: content is not valid UTF-8 text' });
  });

  test('patterns RE2 cannot run register, each reported with its pointer', async () => {
    const { warnings } = await loadSchema(read('patterns.yaml'));
    const byPointer = new Map(warnings.map((warning) => [warning.pointer, warning]));
    for (const name of ['name', 'password', 'note', 'twice', 'risky']) {
      const warning = byPointer.get(`${PROPERTY}/${name}/pattern`);
      assert.ok(warning, `a warning for ${name}`);
      assert.match(warning.code, /^PATTERN_(NOT_ENFORCED|ECMA_ENGINE)$/);
    }
    assert.equal(byPointer.has(`${PROPERTY}/plain/pattern`), false, 'RE2 runs the plain pattern: nothing to report');
    // A back-reference after a super-linear group is never run by a backtracking engine.
    assert.equal(byPointer.get(`${PROPERTY}/risky/pattern`)!.code, 'PATTERN_NOT_ENFORCED');
  });

  test('a counted repeat over RE2\'s limit proven safe runs in the JavaScript engine; look-around, which the analyser cannot prove, is not enforced', { skip: !recheckInstalled && 'recheck is not installed' }, async () => {
    const { document, warnings } = await loadSchema(read('patterns.yaml'));
    const codes = new Map(warnings.map((warning) => [warning.pointer.split('/').at(-2), warning.code]));
    assert.equal(codes.get('note'), 'PATTERN_ECMA_ENGINE');
    assert.equal(codes.get('name'), 'PATTERN_NOT_ENFORCED');
    assert.equal(codes.get('password'), 'PATTERN_NOT_ENFORCED');
    const contract = new CompiledContract(document);
    const post = (body: object) => contract.validateInteraction({
      request: { method: 'POST', path: '/environments', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    });
    assert.equal(post({ name: 'staging', note: 'x'.repeat(5000) }).valid, true);
    const tooLong = post({ note: 'x'.repeat(262_145) });
    assert.equal(tooLong.valid, false);
    assert.match(tooLong.errors[0]!, /^request body \/note: /);
  });

  test('a pattern that is not enforced does not refuse values; RE2 patterns still do', async () => {
    const { document } = await loadSchema(read('patterns.yaml'));
    const contract = new CompiledContract(document);
    const post = (body: object) => contract.validateInteraction({
      request: { method: 'POST', path: '/environments', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    });
    assert.equal(post({ risky: 'b', twice: 'ab-cd' }).valid, true);
    const plain = post({ plain: 'TOO-LOUD' });
    assert.equal(plain.valid, false);
    assert.match(plain.errors[0]!, /request body \/plain: /);
  });

  test('deviations with a clear meaning are read leniently and reported', async () => {
    const { document, warnings } = await loadSchema(read('lenient.yaml'));
    const summary = warnings.map(({ code, pointer }) => `${code} ${pointer}`).sort();
    assert.deepEqual(summary, [
      'KEYWORD_IGNORED /paths/~1items~1{id}/get/responses/200/content/application~1json/schema/properties/code/pattern',
      'KEYWORD_IGNORED /paths/~1items~1{id}/get/responses/200/content/application~1json/schema/required',
      'PARAMETER_WITHOUT_SCHEMA /paths/~1items~1{id}/get/parameters/0',
      'PARAMETER_WITHOUT_SCHEMA /paths/~1items~1{id}/parameters/0',
      'RESPONSES_MISSING /paths/~1items/post',
    ]);
    for (const warning of warnings) assert.ok(warning.message.length > 10, warning.message);
    const contract = new CompiledContract(document);
    const outcome = contract.validateInteraction({
      request: { method: 'GET', path: '/items/anything?filter=%7Bx%7D', headers: {}, body: '' },
      response: { statusCode: 200, headers: { 'content-type': 'application/json' }, body: '{"code":"x","count":1}' },
    });
    assert.deepEqual(outcome, { valid: true, errors: [] });
  });

  test('a discriminator mapping entry naming a schema the document lacks is ignored and reported; the rest still dispatches', async () => {
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const document = {
      openapi: '3.0.3',
      info: { title: 'pets', version: '1.0.0' },
      paths: { '/pets': { post: { requestBody: { content: { 'application/json': { schema: ref('Pet') } } }, responses: { '204': { description: 'stored' } } } } },
      components: {
        schemas: {
          Pet: {
            type: 'object', required: ['kind'], properties: { kind: { type: 'string' } },
            // `dog` (a reference) and `bird` (a component name) name nothing in the document.
            discriminator: { propertyName: 'kind', mapping: { cat: '#/components/schemas/Cat', dog: '#/components/schemas/Dog', bird: 'Bird' } },
          },
          Cat: { allOf: [ref('Pet'), { type: 'object', properties: { claws: { type: 'integer' } } }] },
        },
      },
    };
    const loaded = await loadSchema(JSON.stringify(document));
    assert.deepEqual(loaded.warnings.map(({ code, pointer }) => ({ code, pointer })), [
      { code: 'KEYWORD_IGNORED', pointer: '/components/schemas/Pet/discriminator/mapping/dog' },
      { code: 'KEYWORD_IGNORED', pointer: '/components/schemas/Pet/discriminator/mapping/bird' },
    ]);
    assert.match(loaded.warnings[0]!.message, /discriminator mapping "dog" names "#\/components\/schemas\/Dog", which is not in the document: ignored/);
    const contract = new CompiledContract(loaded.document);
    const post = (body: object) => contract.validateInteraction({
      request: { method: 'POST', path: '/pets', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    });
    // Kept, the dangling entry failed every call of the operation ("could not be compiled").
    assert.deepEqual(post({ kind: 'cat', claws: 3 }), { valid: true, errors: [] });
    assert.deepEqual(post({ kind: 'cat', claws: 'sharp' }), { valid: false, errors: ['request body /claws: must be integer'], category: 'request_invalid' });
    assert.deepEqual(post({ kind: 'dog' }), { valid: true, errors: [] });
  });

  test('unsafe or senseless documents are still refused', async () => {
    const base = { openapi: '3.0.3', info: { title: 't', version: '1.0.0' } };
    const cases: Array<[object, RegExp]> = [
      [{ ...base, paths: { '/a': { get: { responses: { 200: { $ref: 'other.yaml#/r' } } } } } }, /external \$ref/],
      [{ ...base, paths: { '/a': { get: { responses: { 200: { $ref: '#/components/responses/none' } } } } } }, /does not resolve/],
      [{ ...base, paths: { '/a': { get: { 200: { description: 'responses placed under the operation' } } } } }, /not a valid OpenAPI document: .*must NOT have additional properties "200"/],
      [{ ...base, paths: { '/a': { get: { parameters: [{ name: 'q', schema: { type: 'string' } }], responses: {} } } } }, /not a valid OpenAPI document/],
    ];
    for (const [document, message] of cases) await assert.rejects(loadSchema(JSON.stringify(document)), { message });
  });
});
