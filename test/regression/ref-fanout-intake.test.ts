/**
 * Regression: registration of a document whose components reference each other twice per level
 * used to take exponential time (validation walked the dereferenced document: 24 levels took
 * minutes, then overflowed the stack). Intake must stay linear in the text.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkHealth } from '../helpers/health';
import { startTestServer, type TestServer } from '../helpers/server';

function fanOutDocument(levels: number): string {
  const schemas: Record<string, unknown> = { L0: { type: 'string' } };
  for (let i = 1; i <= levels; i++) {
    const ref = { $ref: `#/components/schemas/L${i - 1}` };
    schemas[`L${i}`] = { type: 'object', properties: { a: ref, b: ref } };
  }
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'fan-out', version: '1.0.0' },
    paths: { '/x': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: `#/components/schemas/L${levels}` } } } } } } } },
    components: { schemas },
  });
}

describe('regression: $ref fan-out at registration', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer({ workerThreads: 1 });
  });
  after(async () => t.close());

  it('registers 64 levels of two-way fan-out in bounded time', async () => {
    const started = Date.now();
    const response = await t.client.call('RegisterSchema', { schema_id: 'fanout', schema_content: fanOutDocument(64) });
    assert.equal(response.success, true, response.message);
    assert.ok(Date.now() - started < 5_000, `took ${Date.now() - started} ms`);
    assert.equal(await checkHealth(t.address), 'SERVING');
  });

  it('still refuses a $ref that resolves to nothing', async () => {
    const document = JSON.parse(fanOutDocument(2));
    document.components.schemas.L1.properties.a = { $ref: '#/components/schemas/Missing' };
    const response = await t.client.call('RegisterSchema', { schema_id: 'dangling', schema_content: JSON.stringify(document) });
    assert.equal(response.success, false);
    assert.equal(response.message, 'Invalid schema: $ref "#/components/schemas/Missing" at /components/schemas/L1/properties/a does not resolve to anything in the document');
  });

  it('answers a $ref with a malformed %-escape as an invalid schema, not an internal error', async () => {
    const document = JSON.parse(fanOutDocument(1));
    document.components.schemas.L1.properties.a = { $ref: '#/components/schemas/%E0' };
    const response = await t.client.call('RegisterSchema', { schema_id: 'bad-escape', schema_content: JSON.stringify(document) });
    assert.equal(response.success, false);
    assert.equal(response.message, 'Invalid schema: $ref "#/components/schemas/%E0" at /components/schemas/L1/properties/a does not resolve to anything in the document');
  });
});
