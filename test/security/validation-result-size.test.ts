/**
 * A small body cannot make a large ValidationResult. Every message quoted the full JSON pointer of
 * the failing value, built from the body's own keys: 100 levels of 1,000-character keys over 200
 * wrong items (a 100 KB body) gave 100 messages of about 100 KB each, a 9.9 MB result; a 1 MB body
 * gave 99 MB and failed with RESOURCE_EXHAUSTED "Sent message larger than max". Pointers and property
 * names are shortened now (maxPointerChars, maxQuotedValueChars), and the messages of one outcome are
 * capped in bytes (maxErrorBytes) besides their count.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LIMITS } from '../../src/shared/limits';
import { CompiledContract } from '../../src/shared/validation';
import { shortPointer } from '../../src/shared/validation/messages';
import { startTestServer, type TestServer } from '../helpers/server';
import { DEEP_SCHEMA, deepBody, deepInteraction } from '../helpers/deep-bodies';
import { registerSchema } from '../helpers/validation';

const bytesOf = (errors: readonly string[]) => errors.reduce((sum, error) => sum + Buffer.byteLength(error, 'utf8'), 0);

describe('over gRPC', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ workerThreads: 1 });
    await registerSchema(server.client, 'deep', JSON.stringify(DEEP_SCHEMA));
  });
  after(() => server.close());

  for (const keyChars of [1_000, 10_000]) {
    test(`100 levels of ${keyChars}-character keys over 200 wrong items: a result of at most maxErrorBytes, the rest counted`, async () => {
      const body = deepBody(100, keyChars, 200);
      const result = await server.client.call('ValidateInteraction', deepInteraction(body), { deadlineMs: 60_000 });
      assert.equal(result.valid, false);
      assert.equal(result.errors.length, LIMITS.validationMaxErrors);
      assert.ok(bytesOf(result.errors) <= LIMITS.validationMaxErrorBytes, `${bytesOf(result.errors)} bytes of messages`);
      assert.match(result.errors.at(-1), /^… and at least \d+ more violations not listed \(limit maxErrors = 100\)$/);
      // Where: the start of the pointer, its end (which item), and its whole length.
      const pointerChars = 100 * (keyChars + 1) + '/leaf/0'.length;
      const first: string = result.errors[0];
      assert.ok(first.startsWith(`request body /0${'k'.repeat(LIMITS.validationMaxPointerChars / 2 - 2)}…k`), first.slice(0, 200));
      assert.ok(first.endsWith(`k/leaf/0 (pointer of ${pointerChars} characters): must be integer`), first.slice(-200));
      assert.ok(first.length < 2 * LIMITS.validationMaxPointerChars, `${first.length} characters`);
    });
  }
});

describe('the engine', () => {
  const contract = (options: ConstructorParameters<typeof CompiledContract>[1] = {}) => new CompiledContract(DEEP_SCHEMA as never, options);
  const post = (body: string) => ({ request: { method: 'POST', path: '/d', headers: { 'content-type': 'application/json' }, body } });

  test('messages past maxErrorBytes are counted, not listed, and the last entry names the limit', () => {
    const outcome = contract({ maxErrorBytes: 4_096 }).validateInteraction(post(deepBody(3, 100, 200)));
    const listed = outcome.errors.slice(0, -1);
    assert.ok(listed.length > 1 && listed.length < LIMITS.validationMaxErrors, `${listed.length} listed`);
    assert.ok(bytesOf(listed) <= 4_096, `${bytesOf(listed)} bytes listed`);
    const summary = /^… and at least (\d+) more violations not listed \(limit maxErrorBytes = 4 KiB\)$/.exec(outcome.errors.at(-1)!);
    assert.ok(summary, outcome.errors.at(-1));
    // The validator stops at maxErrors + 1 violations: every one of them is listed or counted.
    assert.equal(listed.length + Number(summary[1]), LIMITS.validationMaxErrors + 1);
  });

  test('a first message larger than maxErrorBytes alone is listed, cut to fit', () => {
    const outcome = contract({ maxErrorBytes: 60, maxPointerChars: 1_000 }).validateInteraction(post(deepBody(3, 100, 1)));
    assert.equal(outcome.errors.length, 1);
    assert.ok(Buffer.byteLength(outcome.errors[0]!) <= 60 + 3, outcome.errors[0]);
    assert.ok(outcome.errors[0]!.startsWith('request body /0kkk') && outcome.errors[0]!.endsWith('…'), outcome.errors[0]);
  });

  test('a long property name is cut like a value in "unexpected property" and "property name" messages', () => {
    const strict = {
      ...DEEP_SCHEMA,
      components: { schemas: { Node: { type: 'object', properties: { a: { type: 'object', additionalProperties: false, propertyNames: { maxLength: 5 } } } } } },
    };
    const name = 'n'.repeat(50_000);
    const outcome = new CompiledContract(strict as never).validateInteraction(post(JSON.stringify({ a: { [name]: 1 } })));
    const cut = `${'n'.repeat(LIMITS.validationMaxQuotedValueChars)}…`;
    assert.ok(outcome.errors.includes(`request body /a: unexpected property "${cut}"`), outcome.errors.join('\n').slice(0, 2_000));
    assert.ok(outcome.errors.includes(`request body /a: property name "${cut}" is not valid`), outcome.errors.join('\n').slice(0, 2_000));
    for (const message of outcome.errors) assert.ok(message.length < 2 * LIMITS.validationMaxPointerChars, message.slice(0, 300));
  });

  test('a cut pointer keeps its start and end and never splits a character made of two UTF-16 units', () => {
    assert.equal(shortPointer('/items/0', 6 + 2), '/items/0');
    assert.equal(shortPointer(`/${'😀'.repeat(20)}`, 6), '/😀…😀 (pointer of 41 characters)');
    assert.equal(shortPointer(`/a/${'b'.repeat(300)}/c/7`, 10), '/a/bb…b/c/7 (pointer of 307 characters)');
  });
});
