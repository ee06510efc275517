/**
 * One lane of the corpus suite, in a worker thread of the bench process: it takes documents one at
 * a time ({ index, file }), registers each through intake and posts the intake figures at once,
 * then runs the fixture round trip over every operation (a fixture generated, then validated as
 * an interaction) and posts its tally. The suite's main thread holds the per-document time cap: a
 * lane past it is terminated (that ends even a synchronous loop) and replaced, so one document
 * never stalls the run, and the intake figures already posted still count.
 */
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { errorMessage } from '../src/shared/errors';
import { generateFixture } from '../src/shared/fixture-generator';
import { loadSchema } from '../src/shared/openapi/load-document';
import { listOperations } from '../src/shared/openapi/operations';
import { CompiledContract } from '../src/shared/validation/compiled-contract';

export interface CorpusWorkerData {
  withFixtures: boolean;
}

export interface CorpusTask {
  index: number;
  file: string;
  /** How the document is named in the report (its path inside the directory). */
  name: string;
}

/** A message without the parts that differ per document (quoted names, pointers, numbers): what groups outcomes. */
export function reasonOf(message: string): string {
  return message
    .replace(/"[^"]*"/g, '"…"')
    .replace(/(?:\/[^\s/;:,]+)+/g, (pointer) => (pointer.length > 1 ? '<pointer>' : pointer))
    .replace(/\d+(?:\.\d+)?/g, 'N')
    .slice(0, 160);
}

/** An outcome to group by `reason`, with the operation (and detail) it happened to. */
export interface Outcome {
  reason: string;
  example: string;
}

export type CorpusMessage =
  | {
      kind: 'intake';
      index: number;
      intakeMs: number;
      /** Set when intake refused the document. */
      refusal?: Outcome;
      warningCounts: Record<string, number>;
      operations: number;
    }
  | {
      kind: 'round-trip';
      index: number;
      generated: number;
      valid: number;
      fixtureRefused: Outcome[];
      invalid: Outcome[];
      /** Fixtures whose schema is over a compile limit (maxCompileSchemaNodes): not checked. */
      overLimit: Outcome[];
    }
  | {
      /** The lane threw (a bug of the bench or of the code it measures): listed, never hidden. */
      kind: 'failed';
      index: number;
      message: string;
    };

const { withFixtures } = workerData as CorpusWorkerData;
const port = parentPort!;

port.on('message', (task: CorpusTask) => {
  runDocument(task).catch((error: unknown) => post({ kind: 'failed', index: task.index, message: errorMessage(error).slice(0, 300) }));
});

async function runDocument({ index, file, name }: CorpusTask): Promise<void> {
  const text = fs.readFileSync(file, 'utf8');
  const started = performance.now();
  let loaded;
  try {
    loaded = await loadSchema(text);
  } catch (error) {
    const message = errorMessage(error);
    post({ kind: 'intake', index, intakeMs: performance.now() - started, refusal: { reason: reasonOf(message), example: `${name}: ${message.slice(0, 300)}` }, warningCounts: {}, operations: 0 });
    return;
  }
  const intakeMs = performance.now() - started;
  const operations = listOperations(loaded.document);
  post({ kind: 'intake', index, intakeMs, warningCounts: loaded.warningCounts as Record<string, number>, operations: withFixtures ? operations.length : 0 });
  if (!withFixtures) return;

  const tally: Extract<CorpusMessage, { kind: 'round-trip' }> = { kind: 'round-trip', index, generated: 0, valid: 0, fixtureRefused: [], invalid: [], overLimit: [] };
  const contract = new CompiledContract(loaded.document);
  try {
    for (const { method, path: template } of operations) {
      const where = `${name} ${method} ${template}`;
      let fixture;
      try {
        fixture = generateFixture(loaded.document, { method, path: template });
      } catch (error) {
        tally.fixtureRefused.push({ reason: reasonOf(errorMessage(error)), example: `${where}: ${errorMessage(error).slice(0, 200)}` });
        continue;
      }
      tally.generated++;
      const outcome = contract.validateInteraction({ request: fixture.request, response: fixture.response });
      if (outcome.valid) tally.valid++;
      else if (outcome.category === 'router_creation') tally.overLimit.push({ reason: reasonOf(outcome.errors[0] ?? ''), example: where });
      else tally.invalid.push({ reason: reasonOf(outcome.errors[0] ?? ''), example: `${where}: ${outcome.errors.slice(0, 2).join(' | ').slice(0, 300)}` });
    }
  } finally {
    contract.close();
  }
  post(tally);
}

function post(message: CorpusMessage): void {
  port.postMessage(message);
}
