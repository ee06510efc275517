/**
 * One call made from a worker thread of the test process. An in-process test server shares its
 * main thread with the test's own clients, so a client decoding a large answer there (6 MB took
 * 100-200 ms) delays the server as no remote caller would; isolation tests time a neighbour against
 * the server alone. The answer comes back as JSON bytes and is parsed only when the test asks.
 */
import { Worker } from 'node:worker_threads';
import path from 'node:path';

export interface ThreadCallRequest {
  address: string;
  method: string;
  request: object;
  deadlineMs: number;
}

/** What the thread posts back: the answer as UTF-8 JSON, or the call's failure. */
export type ThreadCallOutcome = { json: Uint8Array } | { code: number; details: string };

/** Resolves with a reader of the answer once the thread has it; rejects with the call's failure. */
export function callFromThread(address: string, method: string, request: object, deadlineMs = 60_000): Promise<{ answer<R = any>(): R }> {
  const worker = new Worker(path.join(__dirname, 'thread-call-worker.js'), { workerData: { address, method, request, deadlineMs } satisfies ThreadCallRequest });
  return new Promise((resolve, reject) => {
    worker.once('error', reject);
    // After an answer this is a no-op; without one, the call's thread ended early.
    worker.once('exit', (code) => reject(new Error(`${method} from its thread: the thread exited (${code}) without an answer`)));
    worker.once('message', (outcome: ThreadCallOutcome) => {
      void worker.terminate();
      if ('json' in outcome) resolve({ answer: () => JSON.parse(Buffer.from(outcome.json).toString('utf8')) });
      else reject(Object.assign(new Error(`${method} failed from its thread: ${outcome.code} ${outcome.details}`), outcome));
    });
  });
}
