/**
 * Issue 12: what callers create by registering stays bounded where every caller meets it.
 * - Environments: 3,000 of them made the refusal of a misspelt one a 195 KB status message that no
 *   client could read (the call, and every later call on its connection, hung), and every create
 *   slower. At most maxEnvironments exist; the refusal names 20; any status message is cut at
 *   maxStatusMessageChars.
 * - Metrics: 3,000 registered schemas made a 36 MB scrape that held the main thread 1–2 s. Schema ids,
 *   owners and teams have series of their own up to metricsMaxLabelValues; the rest share __other__.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import { LIMITS } from '../../src/shared/limits';
import { OTHER_LABEL, createBoundedLabel } from '../../src/main/metrics';
import { statusDetails } from '../../src/main/grpc-status';
import { minimalDocument } from '../helpers/documents';
import { startTestServer, type TestServer } from '../helpers/server';
import { USERS_SCHEMA_TEXT, VALID_USER, getUserInteraction, registerSchema } from '../helpers/validation';

let server: TestServer;
before(async () => {
  server = await startTestServer();
  await registerSchema(server.client, 'users', USERS_SCHEMA_TEXT);
});
after(() => server.close());

describe('environments', () => {
  test('at most maxEnvironments exist besides the built-in ones; a misspelt one is refused promptly, naming 20', async () => {
    // 63-character names, as in the probe that found it.
    const name = (i: number) => `env-${String(i).padStart(5, '0')}-${'x'.repeat(53)}`;
    for (let start = 0; start < LIMITS.maxEnvironments; start += 50) {
      const batch = Array.from({ length: Math.min(50, LIMITS.maxEnvironments - start) }, (_, i) => name(start + i));
      for (const answer of await Promise.all(batch.map((environment) => server.client.call('CreateEnvironment', { name: environment })))) {
        assert.equal(answer.success, true, answer.message);
      }
    }
    const refused = await server.client.call('CreateEnvironment', { name: 'one-too-many' });
    assert.equal(refused.success, false);
    assert.match(refused.message, new RegExp(`^${LIMITS.maxEnvironments} environments besides dev, staging, prod exist, the limit \\(maxEnvironments\\); environment one-too-many was not created`));
    const again = await server.client.call('CreateEnvironment', { name: name(7) });
    assert.equal(again.success, true, 'an existing one is still answered at the limit');
    assert.match(again.message, /already exists$/);

    await assert.rejects(
      server.client.call('ListDeployments', { schema_id: 'users', environment: 'prdo' }, { deadlineMs: 5_000 }),
      (error: grpc.ServiceError) => {
        assert.equal(error.code, grpc.status.FAILED_PRECONDITION);
        assert.match(error.details, new RegExp(`^environment "prdo" is not known; known environments: dev, staging, prod, env-00000-x+, .* and ${LIMITS.maxEnvironments + 3 - 20} more \\(svc environment list\\)\\.`));
        assert.ok(error.details.length < 2_000, `a refusal of ${error.details.length} characters`);
        return true;
      },
    );
    // The connection still answers.
    const result = await server.client.call('ValidateInteraction', getUserInteraction('users', '42', VALID_USER), { deadlineMs: 5_000 });
    assert.equal(result.valid, true);
  });

  test('a status message longer than maxStatusMessageChars keeps its start and says how long it was', () => {
    assert.equal(statusDetails('short'), 'short');
    const long = `environment "x" is not known: ${'y'.repeat(200_000)}`;
    const cut = statusDetails(long);
    assert.equal(cut.length, LIMITS.maxStatusMessageChars);
    assert.ok(cut.startsWith('environment "x" is not known: yyy'));
    assert.match(cut, new RegExp(`… \\(a message of ${long.length} characters, cut at maxStatusMessageChars\\)$`));
  });
});

describe('metrics', () => {
  async function scrape(): Promise<string> {
    const response = await fetch(`http://127.0.0.1:${server.server.metricsPort}/metrics`);
    assert.equal(response.status, 200);
    return response.text();
  }
  const labelValues = (text: string, metric: string, label: string) =>
    new Set([...text.matchAll(new RegExp(`^${metric}\\{[^}]*${label}="([^"]*)"`, 'gm'))].map((match) => match[1]!));

  test('schema ids, owners and teams have series of their own up to metricsMaxLabelValues; the rest share __other__', async () => {
    const schemas = LIMITS.metricsMaxLabelValues + 10;
    // Ten at a time: one caller may have documentTaskMaxQueuedPerCaller (16) registrations waiting.
    for (let start = 0; start < schemas; start += 10) {
      await Promise.all(Array.from({ length: Math.min(10, schemas - start) }, async (_, i) => {
        const id = `s${start + i}`;
        const answer = await server.client.call('RegisterSchema', {
          schema_id: id, schema_content: minimalDocument(), ownership: { owner: `owner-${start + i}`, team: `team-${start + i}` },
        });
        assert.equal(answer.success, true, answer.message);
        await server.client.call('ValidateInteraction', { schema_id: id, request: { method: 'GET', path: '/nowhere', headers: {}, body: '' } });
      }));
    }
    const text = await scrape();
    const validated = labelValues(text, 'svc_validations_total', 'schema_id');
    assert.equal(validated.size, LIMITS.metricsMaxLabelValues + 1, 'one label value each up to the limit, and __other__');
    assert.ok(validated.has(OTHER_LABEL));
    assert.deepEqual(labelValues(text, 'svc_validation_duration_seconds_count', 'schema_id'), validated);
    const versions = labelValues(text, 'svc_schema_versions_total', 'schema_id');
    assert.equal(versions.size, LIMITS.metricsMaxLabelValues + 1);
    const otherVersions = Number(/^svc_schema_versions_total\{schema_id="__other__"\} (\d+)$/m.exec(text)?.[1]);
    assert.equal(otherVersions, schemas + 1 - LIMITS.metricsMaxLabelValues, 'the versions of the schemas past the limit, summed');
    for (const [metric, label] of [['svc_schemas_by_owner', 'owner'], ['svc_schemas_by_team', 'team']] as const) {
      const values = labelValues(text, metric, label);
      assert.equal(values.size, LIMITS.metricsMaxLabelValues + 1, metric);
      assert.ok(values.has(OTHER_LABEL), metric);
    }
  });

  test('a bounded label takes values in the order first asked for', () => {
    const label = createBoundedLabel(2);
    assert.deepEqual(['a', 'b', 'c', 'a', 'd', 'b'].map(label), ['a', 'b', OTHER_LABEL, 'a', OTHER_LABEL, 'b']);
  });
});
