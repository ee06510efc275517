/**
 * RegisterSchema reports every leniency of a registration: in the response's `warnings` (code and
 * JSON pointer each), in the Node.js client's SchemaRegistration, and in the
 * `svc_schema_registration_warnings_total` counter. A clean document reports none.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ContractValidator } from '@svc/client';
import { scrapeMetrics } from '../helpers/metrics-scrape';
import { ordersApi } from '../helpers/orders-api';
import { fixturePath } from '../helpers/paths';
import { startTestServer, type TestServer } from '../helpers/server';
import fs from 'node:fs';

describe('registration warnings', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(() => server.close());

  test('the response lists each leniency with its code and pointer; a clean document lists none', async () => {
    const lenient = await server.client.call<any>('RegisterSchema', {
      schema_id: 'lenient', schema_content: fs.readFileSync(fixturePath('real-world', 'lenient.yaml'), 'utf8'),
    });
    assert.equal(lenient.success, true, lenient.message);
    assert.deepEqual(lenient.warnings.map((w: { code: string }) => w.code).sort(), [
      'KEYWORD_IGNORED', 'KEYWORD_IGNORED', 'PARAMETER_WITHOUT_SCHEMA', 'PARAMETER_WITHOUT_SCHEMA', 'RESPONSES_MISSING',
    ]);
    assert.ok(lenient.warnings.every((w: { pointer: string; message: string }) => w.pointer.startsWith('/paths/') && w.message !== ''));
    const clean = await server.client.call<any>('RegisterSchema', { schema_id: 'orders', schema_version: '1.0.0', schema_content: ordersApi() });
    assert.equal(clean.success, true, clean.message);
    assert.deepEqual(clean.warnings, []);

    const scrape = await scrapeMetrics(server.server.metricsPort!);
    assert.equal(scrape.value('svc_schema_registration_warnings_total', { code: 'keyword_ignored' }), 2);
    assert.equal(scrape.value('svc_schema_registration_warnings_total', { code: 'responses_missing' }), 1);
  });

  test('the Node.js client returns the warnings on SchemaRegistration', async () => {
    const client = new ContractValidator({ address: server.address });
    try {
      const registration = await client.registerSchema('patterns', fixturePath('real-world', 'patterns.yaml'));
      const pointers = registration.warnings.map((warning) => warning.pointer);
      assert.ok(pointers.includes('/paths/~1environments/post/requestBody/content/application~1json/schema/properties/risky/pattern'), pointers.join(', '));
      assert.ok(registration.warnings.every((warning) => /^PATTERN_(NOT_ENFORCED|ECMA_ENGINE)$/.test(warning.code)));
    } finally {
      await client.close();
    }
  });
});
