/**
 * cold-start: RegisterSchema of the large description (GitHub's REST API, 13 MB) on a fresh
 * server, then the latency of its first validation (a worker receives the document, builds the
 * router and compiles one operation), then of the next one.
 * Goals: registration ≤ 3 s, first validation ≤ 200 ms.
 */
import { corpusText, ensureCorpora } from './corpora';
import { ceilingRow, machineNote, type BenchSuite } from './harness';
import { GITHUB } from './interactions';
import { callUnary, interactionRequest, startBenchServer } from './servers';

export const coldStartSuite: BenchSuite = {
  name: 'cold-start',
  description: 'RegisterSchema of the GitHub REST API description, then first-validation latency',
  async run(progress) {
    ensureCorpora(progress);
    const content = corpusText(GITHUB.corpusFile);
    progress('starting a fresh svc server');
    const server = await startBenchServer('svc');
    try {
      progress(`RegisterSchema of ${(content.length / 1e6).toFixed(1)} MB`);
      let started = performance.now();
      const registration = await callUnary(server.client, 'RegisterSchema', { schema_id: 'github', schema_content: content, schema_version: '1.0.0' });
      const registerMs = performance.now() - started;
      if (!registration.success) throw new Error(`RegisterSchema failed: ${registration.message}`);

      const [first, second] = [GITHUB.interactions[0]!, GITHUB.interactions[1]!];
      progress(`first validation: ${first.name}`);
      started = performance.now();
      const firstResult = await callUnary(server.client, 'ValidateInteraction', interactionRequest('github', first));
      const firstMs = performance.now() - started;
      if (!firstResult.valid) throw new Error(`the first interaction did not validate: ${firstResult.errors.join('; ')}`);
      started = performance.now();
      await callUnary(server.client, 'ValidateInteraction', interactionRequest('github', first));
      const warmMs = performance.now() - started;
      started = performance.now();
      await callUnary(server.client, 'ValidateInteraction', interactionRequest('github', second));
      const otherOperationMs = performance.now() - started;
      return {
        suite: 'cold-start',
        rows: [
          ceilingRow('RegisterSchema, GitHub REST API', registerMs, 'ms', 3000),
          ceilingRow('first ValidateInteraction (document to a worker, router, one operation compiled)', firstMs, 'ms', 200),
          { name: 'same call again (warm)', value: warmMs, unit: 'ms' },
          { name: 'another operation, first time (its lazy compile)', value: otherOperationMs, unit: 'ms' },
        ],
        notes: [
          machineNote(),
          `${(content.length / 1e6).toFixed(1)} MB of JSON, ${registration.metadata.endpoint_count} operations; times are seen by the client, over loopback gRPC`,
        ],
      };
    } finally {
      await server.stop();
    }
  },
};
