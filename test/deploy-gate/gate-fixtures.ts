/** Shared set-up of the deploy-gate tests: a server on loopback, the orders API in versions, consumers. */
import assert from 'node:assert/strict';
import { ordersApi, type OrdersApiOptions } from '../helpers/orders-api';
import type { TestServer } from '../helpers/server';

export type Call = <R = any>(method: string, request: object) => Promise<R>;

export function caller(server: TestServer): Call {
  return (method, request) => server.client.call(method, request);
}

export async function registerVersions(call: Call, schemaId: string, versions: Array<[string, OrdersApiOptions]>): Promise<void> {
  for (const [version, options] of versions) {
    const response = await call('RegisterSchema', { schema_id: schemaId, schema_version: version, schema_content: ordersApi(options) });
    assert.equal(response.success, true, response.message);
  }
}

export async function registerConsumer(
  call: Call,
  fields: { schemaId: string; consumerId: string; consumerVersion?: string; schemaVersion: string; environment: string; endpoints: Array<[string, string]> },
): Promise<void> {
  const response = await call('RegisterConsumer', {
    consumer_id: fields.consumerId, consumer_version: fields.consumerVersion ?? '1.0.0', schema_id: fields.schemaId,
    schema_version: fields.schemaVersion, environment: fields.environment,
    used_endpoints: fields.endpoints.map(([method, path]) => ({ method, path, used_fields: [] })),
  });
  assert.equal(response.success, true, response.message);
}

export function verdicts(impacts: Array<{ consumer_id: string; will_break: boolean }>): Array<[string, boolean]> {
  return impacts.map((impact) => [impact.consumer_id, impact.will_break]);
}
