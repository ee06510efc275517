/** The worker thread of callFromThread: makes its one call and posts the outcome back. */
import { parentPort, workerData } from 'node:worker_threads';
import type { ServiceError } from '@grpc/grpc-js';
import { createTestClient } from './test-client';
import type { ThreadCallOutcome, ThreadCallRequest } from './thread-call';

const { address, method, request, deadlineMs } = workerData as ThreadCallRequest;
const client = createTestClient(address);
client.call(method, request, { deadlineMs }).then(
  (answer: object) => {
    const json = new TextEncoder().encode(JSON.stringify(answer));
    parentPort!.postMessage({ json } satisfies ThreadCallOutcome, [json.buffer]);
  },
  (error: ServiceError) => parentPort!.postMessage({ code: error.code, details: error.details } satisfies ThreadCallOutcome),
).finally(() => client.close());
