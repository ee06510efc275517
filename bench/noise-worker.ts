/**
 * The noisy tenant of the noisy-neighbour suite, in a worker thread of the bench process: it keeps
 * `inFlight` ValidateInteraction calls going (or, by `transport`, that many ValidateInteractionStream
 * or RecordInteractions calls written as fast as the server reads them) with messages encoded once beforehand, so neither
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
  /**
   * How the messages go: `inFlight` unary ValidateInteraction calls, or `inFlight` streams of
   * ValidateInteractionStream or of RecordInteractions (the messages are then RecordedInteractions).
   */
  transport: NoiseTransport;
  deadlineMs: number;
}

export type NoiseTransport = 'unary' | 'validation-streams' | 'recording-streams';

export interface NoiseTally {
  answered: number;
  outcomes: Record<string, number>;
  /** Unary calls' p50 (NaN for streams, whose items are not timed). */
  p50Ms: number;
}

const { address, messages, inFlight, transport, deadlineMs } = workerData as NoiseWorkerData;
const streams = transport !== 'unary';
const definition = contractValidatorDefinition().ValidateInteraction;
const streamDefinition = contractValidatorDefinition().ValidateInteractionStream;
const recordDefinition = contractValidatorDefinition().RecordInteractions;
const connect = () => new grpc.Client(address, grpc.credentials.createInsecure(), {
  'grpc.max_receive_message_length': LIMITS.maxGrpcMessageBytes,
  'grpc.max_send_message_length': LIMITS.maxGrpcMessageBytes,
  // Each client its own connection: a stream per connection, as parallel jobs of one tenant send them.
  'grpc.use_local_subchannel_pool': 1,
});
const client = connect();
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

/** One stream on a connection of its own, written as fast as flow control allows until stopped; its items are counted as they are answered. */
function stream(): Promise<void> {
  const streamClient = connect();
  const serialize = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return new Promise<void>((resolve) => {
    const options = { deadline: Date.now() + deadlineMs };
    const call = transport === 'recording-streams'
      ? streamClient.makeClientStreamRequest(recordDefinition.path, serialize, (bytes: Buffer) => recordDefinition.responseDeserialize(bytes) as { accepted: number; dropped: number },
        new grpc.Metadata(), options, (error, response) => {
          if (!error && response) {
            outcomes.recorded = (outcomes.recorded ?? 0) + response.accepted;
            outcomes['not kept'] = (outcomes['not kept'] ?? 0) + response.dropped;
          }
        })
      : streamClient.makeBidiStreamRequest(streamDefinition.path, serialize, (bytes: Buffer) => streamDefinition.responseDeserialize(bytes) as { valid: boolean },
        new grpc.Metadata(), options);
    call.on('data', (response: { valid: boolean }) => {
      const outcome = response.valid ? 'valid' : 'invalid';
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    });
    call.on('status', () => resolve());
    call.on('error', (error: grpc.ServiceError) => {
      const outcome = grpc.status[error.code] ?? 'error';
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      resolve();
    });
    call.on('end', resolve);
    const write = () => {
      while (!stopping) {
        if (!call.write(messages[next++ % messages.length]!)) return void call.once('drain', write);
      }
      call.end();
    };
    write();
  }).finally(() => streamClient.close());
}

const lanes = Promise.all(Array.from({ length: inFlight }, streams ? stream : lane));
parentPort!.once('message', () => {
  stopping = true;
  void lanes.then(() => {
    latencies.sort((a, b) => a - b);
    const answered = streams ? Object.values(outcomes).reduce((sum, count) => sum + count, 0) : latencies.length;
    const tally: NoiseTally = { answered, outcomes, p50Ms: latencies[Math.floor(latencies.length / 2)] ?? Number.NaN };
    client.close();
    parentPort!.postMessage(tally);
  });
});
