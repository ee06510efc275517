/**
 * Compiled validators shared between contracts of one thread (shared-validators.ts): a contract
 * whose operation has the same schema closure as another's reuses that validator instead of
 * compiling its own, and never one whose closure only looks alike.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import { CompiledContract, type ContractOptions } from '../../src/shared/validation';
import { closureKey, sharedValidatorCount } from '../../src/shared/validation/shared-validators';
import type { OpenApiDocument } from '../../src/shared/openapi/document';
import { assertInvalid, assertValid, request } from '../helpers/validation-contracts';

/** One operation whose request body is `body`, with `schemas` as components; `title` tells copies apart. */
function documentWith(title: string, body: object, schemas: Record<string, object> = {}): OpenApiDocument {
  return {
    openapi: '3.0.3',
    info: { title, version: '1.0.0' },
    paths: {
      '/items': {
        post: {
          requestBody: { required: true, content: { 'application/json': { schema: body } } },
          responses: { '204': { description: 'stored' } },
        },
      },
    },
    components: { schemas },
  } as OpenApiDocument;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const ITEM_SCHEMAS = {
  Item: { type: 'object', required: ['id', 'tags'], properties: { id: { type: 'integer' }, tags: { type: 'array', items: ref('Tag') } } },
  Tag: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 }, parent: ref('Tag') } },
};

/** The AJV instance a contract compiles with (a private field, reached for the memory check only). */
function ajvOf(contract: CompiledContract): object {
  return (contract as unknown as { compiler: { ajv: object } }).compiler.ajv;
}

/** A full collection, after the current job (which keeps WeakRef targets alive) has ended. */
async function collectGarbage(): Promise<void> {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  await new Promise((resolve) => setImmediate(resolve));
  gc();
}

function post(contract: CompiledContract, body: unknown) {
  return contract.validateInteraction({ request: request('POST', '/items', { headers: { 'content-type': 'application/json' }, body }) });
}

describe('validators shared between contracts', () => {
  it('a copy of a document compiles nothing new and answers alike', () => {
    const original = new CompiledContract(documentWith('items', ref('Item'), ITEM_SCHEMAS));
    const before = sharedValidatorCount();
    assertValid(post(original, { id: 1, tags: [{ name: 'a', parent: { name: 'b' } }] }));
    const filed = sharedValidatorCount() - before;
    assert.ok(filed >= 1, 'the first contract files its validator');

    const copy = new CompiledContract(documentWith('items (copy)', ref('Item'), ITEM_SCHEMAS));
    assertValid(post(copy, { id: 2, tags: [] }));
    assert.equal(sharedValidatorCount() - before, filed, 'the copy found the validator filed by the first');
    const invalid = { id: 'x', tags: [{ parent: { name: '' } }] };
    assert.deepEqual(post(copy, invalid), post(original, invalid));
    assertInvalid(
      post(copy, invalid),
      'request_invalid',
      'request body /id: must be integer',
      'request body /tags/0: property "name" is required',
      'request body /tags/0/parent/name: must have at least 1 character',
    );
  });

  it('a closed contract withdraws what it filed; a contract that took one of its validators keeps working', () => {
    // A schema of its own, so no earlier test has filed it.
    const schemas = { ...ITEM_SCHEMAS, Item: { ...ITEM_SCHEMAS.Item, minProperties: 2 } };
    const first = new CompiledContract(documentWith('first', ref('Item'), schemas));
    const second = new CompiledContract(documentWith('second', ref('Item'), schemas));
    const before = sharedValidatorCount();
    assertValid(post(first, { id: 1, tags: [] }));
    assertValid(post(second, { id: 2, tags: [] }));
    const filed = sharedValidatorCount() - before;
    assert.ok(filed >= 1);
    first.close();
    assert.equal(sharedValidatorCount() - before, 0, 'the closed contract withdrew its validators');
    assertValid(post(second, { id: 1, tags: [{ name: 'n' }] }));
    assertInvalid(post(second, { id: 1, name: 'x' }), 'request_invalid', 'request body: property "tags" is required');
    // A contract made now compiles and files its own.
    const third = new CompiledContract(documentWith('third', ref('Item'), schemas));
    assertValid(post(third, { id: 3, tags: [] }));
    assert.equal(sharedValidatorCount() - before, filed);
  });

  it('a closed contract\'s AJV instance is freed while a contract that took its validators lives on', async () => {
    const schemas = { ...ITEM_SCHEMAS, Item: { ...ITEM_SCHEMAS.Item, maxProperties: 9 } };
    let first: CompiledContract | undefined = new CompiledContract(documentWith('first', ref('Item'), schemas));
    const second = new CompiledContract(documentWith('second', ref('Item'), schemas));
    assertValid(post(first, { id: 1, tags: [] }));
    const filed = sharedValidatorCount();
    assertValid(post(second, { id: 2, tags: [] }));
    assert.equal(sharedValidatorCount(), filed, 'the second contract took the first one\'s validators');
    const firstAjv = new WeakRef(ajvOf(first));
    first.close();
    first = undefined;
    await collectGarbage();
    assert.equal(firstAjv.deref(), undefined, 'nothing holds the closed contract\'s compiled code');
    assertInvalid(post(second, { id: 'x', tags: [] }), 'request_invalid', 'request body /id: must be integer');
  });

  it('the same schema text behind references to different schemas is not shared', () => {
    // A property named `const` holds a schema, not a value: its `$ref` must count as a reference.
    const numbers = new CompiledContract(documentWith('numbers', { type: 'object', properties: { const: ref('Value') } }, { Value: { type: 'integer' } }));
    const words = new CompiledContract(documentWith('words', { type: 'object', properties: { const: ref('Value') } }, { Value: { type: 'string' } }));
    assertValid(post(numbers, { const: 1 }));
    assertValid(post(words, { const: 'one' }));
    assertInvalid(post(words, { const: 1 }), 'request_invalid', 'request body /const: must be string');
    assertInvalid(post(numbers, { const: 'one' }), 'request_invalid', 'request body /const: must be integer');
  });

  it('a value that spells a reference is not taken for one', () => {
    // Both bodies hold, under `const`, the id their own compiler gives Value (svc:request/1 in the
    // first; svc:request/2 in the second, whose /first operation is compiled before). Walked as
    // schemas, both would read "a reference to Value" and share one validator, whose const is
    // the first document's.
    const body = (id: string) => ({ type: 'object', properties: { a: { const: { $ref: id } }, b: ref('Value') } });
    const schemas = { Value: { type: 'integer' }, Other: { type: 'boolean' } };
    const first = new CompiledContract(documentWith('first', body('svc:request/1'), schemas));
    const secondDocument = documentWith('second', body('svc:request/2'), schemas);
    secondDocument.paths!['/first'] = {
      post: { requestBody: { content: { 'application/json': { schema: ref('Other') } } }, responses: { '204': { description: 'stored' } } },
    };
    const second = new CompiledContract(secondDocument);
    assertValid(post(first, { a: { $ref: 'svc:request/1' }, b: 1 }));
    const firstCall = request('POST', '/first', { headers: { 'content-type': 'application/json' }, body: true });
    assertValid(second.validateInteraction({ request: firstCall }));
    assertValid(post(second, { a: { $ref: 'svc:request/2' }, b: 2 }));
    assertInvalid(post(second, { a: { $ref: 'svc:request/1' }, b: 2 }), 'request_invalid', 'request body /a: must be equal to {"$ref":"svc:request/2"}');
  });

  it('contracts with different error limits compile their own validators', () => {
    const body = { type: 'array', items: { type: 'integer' } };
    const options: Partial<ContractOptions> = { maxErrors: 2 };
    const wide = new CompiledContract(documentWith('wide', body));
    const narrow = new CompiledContract(documentWith('narrow', body), options);
    const strings = ['a', 'b', 'c', 'd', 'e'];
    assert.equal(post(wide, strings).errors.length, 5);
    // The narrow contract's validator stops after maxErrors + 1 violations; the wide one's would find all five.
    assert.deepEqual(post(narrow, strings).errors, [
      'request body /0: must be integer',
      '… and at least 2 more violations not listed (limit maxErrors = 2)',
    ]);
  });
});

describe('closureKey', () => {
  const schemas = new Map<string, unknown>([
    ['a', { type: 'object', properties: { b: { $ref: 'b' } } }],
    ['b', { type: 'array', items: { $ref: 'a' } }],
    ['x', { type: 'object', properties: { b: { $ref: 'y' } } }],
    ['y', { type: 'array', items: { $ref: 'x' } }],
    ['z', { type: 'array', items: { $ref: 'z' } }],
    ['c', { type: 'object', properties: { b: { const: { $ref: 'b' } } } }],
  ]);
  const key = (id: string, salt = 'salt', maxChars = 10_000, oversized: string[] = []) =>
    closureKey(id, (other) => schemas.get(other), salt, maxChars, (other) => oversized.includes(other));

  it('is the same for closures that differ only in their ids', () => {
    assert.equal(key('a'), key('x'));
  });

  it('differs where the graph of references differs', () => {
    // b → a → b against y's own closure (which starts at the array) and a self-referencing array.
    assert.notEqual(key('b'), key('a'));
    assert.notEqual(key('y'), key('z'));
    assert.notEqual(key('c'), key('a'));
  });

  it('differs by salt', () => {
    assert.notEqual(key('a', 'one'), key('a', 'two'));
  });

  it('gives no key to a closure over the budget, or that reaches one known to be', () => {
    assert.equal(key('a', 'salt', 20), undefined);
    assert.equal(key('a', 'salt', 10_000, ['b']), undefined);
    assert.notEqual(key('b', 'salt', 10_000, ['c']), undefined);
  });
});
