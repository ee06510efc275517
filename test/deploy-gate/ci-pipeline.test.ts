/**
 * The CI pipeline of docs/deploy-gate.md (issue 13, item 7), run as written: each block through the
 * built command line (child processes) against `svc serve --immutable-versions` in a child process,
 * then the server is asked what the pipeline left behind.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { REPO_ROOT } from '../helpers/paths';
import { createTestClient, spawnServerProcess, type ServerProcess, type TestClient } from '../helpers/server';
import { clientCommandPaths, makeWorkDir, runBlock, type ExampleContext } from '../docs/block-runner';
import { fencedBlocks } from '../docs/markdown-blocks';

const PAGE = path.join(REPO_ROOT, 'docs', 'deploy-gate.md');
const PIPELINE_HEADING = '## A correct CI pipeline';

/** The runnable blocks after the pipeline heading. */
function pipelineBlocks() {
  const markdown = fs.readFileSync(PAGE, 'utf8');
  const headingLine = markdown.split('\n').indexOf(PIPELINE_HEADING) + 1;
  assert.ok(headingLine > 0, `docs/deploy-gate.md has the heading "${PIPELINE_HEADING}"`);
  return fencedBlocks(markdown).filter((block) => block.line > headingLine && block.marker === undefined);
}

describe('docs/deploy-gate.md: the CI pipeline', () => {
  let server: ServerProcess;
  let client: TestClient;
  let workDir: string;

  before(async () => {
    server = await spawnServerProcess({ storage: 'memory', args: ['--immutable-versions', '--worker-threads', '1'] });
    client = createTestClient(server.address);
    workDir = makeWorkDir();
  });
  after(async () => {
    client.close();
    await server.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  test('runs as shown: the compatible version is published and recorded, the breaking one stops at the gate', async () => {
    const blocks = pipelineBlocks();
    assert.ok(blocks.length >= 4, 'producer release, consumer, compatible change, breaking change');
    const context: ExampleContext = { address: server.address, metricsAddress: `127.0.0.1:${server.metricsPort}`, workDir, clientCommands: clientCommandPaths() };
    for (const block of blocks) await runBlock(block, context);

    const latest = await client.call('GetSchema', { schema_id: 'users-api' });
    assert.equal(latest.metadata.schema_version, '1.1.0', 'the rejected 2.0.0 never became the latest');
    assert.equal((await client.call('GetSchema', { schema_id: 'users-api', schema_version: '2.0.0' })).found, false);
    const deployments = await client.call('ListDeployments', { schema_id: 'users-api', environment: 'prod' });
    assert.deepEqual(deployments.current.map((d: { consumer_id: string; version: string }) => `${d.consumer_id || 'users-api'} ${d.version}`), ['users-api 1.1.0', 'web-app 3.4.1']);
    const gate = await client.call('CanIDeploy', { schema_id: 'users-api', new_version: '1.1.0', environment: 'prod', fail_if_no_consumers: true });
    assert.deepEqual([gate.safe_to_deploy, gate.compared_with, gate.affected_consumers[0].current_schema_version], [true, 'deployed', '1.0.0']);
  });
});
