/**
 * The noisy tenant of the noisy-neighbour suite, in a worker thread of the bench process: it keeps
 * `inFlight` ValidateInteraction calls going with messages encoded once beforehand, so neither
 * encoding large messages nor its own answers delay the victim's load on the bench's main thread.
 * Runs until it receives 'stop', then posts its tally ({ answered, outcomes, p50Ms }) and exits.
 */
import { parentPort, workerData } from 'node:worker_threads';
import * as grpc from '@grpc/grpc-js';
import { contractValidatorDefinition } from '@svc/client/protocol';
import { LIMITS } from '../src/shared/limits';

export interface NoiseWorkerData {
  address: string;
  /** Encoded InteractionRequest messages, sent in turn. */
  messages: Uint8Array[];
  inFlight: number;
  deadlineMs: number;
}

export interface NoiseTally {
  answered: number;
  outcomes: Record<string, number>;
  p50Ms: number;
}

const { address, messages, inFlight, deadlineMs } = workerData as NoiseWorkerData;
const definition = contractValidatorDefinition().ValidateInteraction;
const client = new grpc.Client(address, grpc.credentials.createInsecure(), {
  'grpc.max_receive_message_length': LIMITS.maxGrpcMessageBytes,
  'grpc.max_send_message_length': LIMITS.maxGrpcMessageBytes,
});
let stopping = false;
let next = 0;
const latencies: number[] = [];
const outcomes: Record<string, number> = {};

function call(message: Uint8Array): Promise<string> {
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      definition.path,
      (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      (bytes: Buffer) => definition.responseDeserialize(bytes) as { valid: boolean },
      message,
      new grpc.Metadata(),
      { deadline: Date.now() + deadlineMs },
      (error, response) => resolve(error ? grpc.status[error.code] ?? 'error' : response?.valid ? 'valid' : 'invalid'),
    );
  });
}

async function lane(): Promise<void> {
  while (!stopping) {
    const started = performance.now();
    const outcome = await call(messages[next++ % messages.length]!);
    latencies.push(performance.now() - started);
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
  }
}

const lanes = Promise.all(Array.from({ length: inFlight }, lane));
parentPort!.once('message', () => {
  stopping = true;
  void lanes.then(() => {
    latencies.sort((a, b) => a - b);
    const tally: NoiseTally = { answered: latencies.length, outcomes, p50Ms: latencies[Math.floor(latencies.length / 2)] ?? Number.NaN };
    client.close();
    parentPort!.postMessage(tally);
  });
});
