/** The worker thread of callFromThread: makes its one call and posts the outcome back. */
import { parentPort, workerData } from 'node:worker_threads';
import * as grpc from '@grpc/grpc-js';
import { loadSvcProto } from '@svc/client/protocol';
import { LIMITS } from '../../src/shared/limits';
import type { ThreadCallOutcome, ThreadCallRequest } from './thread-call';

const { address, method, request, deadlineMs } = workerData as ThreadCallRequest;
const Client = loadSvcProto().proto.svc.ContractValidator;
const client = new Client(address, grpc.credentials.createInsecure(), {
  'grpc.max_receive_message_length': LIMITS.maxGrpcMessageBytes,
  'grpc.max_send_message_length': LIMITS.maxGrpcMessageBytes,
});
const call = (client as unknown as Record<string, Function>)[method]!;
call.call(client, request, new grpc.Metadata(), { deadline: new Date(Date.now() + deadlineMs) }, (error: grpc.ServiceError | null, answer: object) => {
  client.close();
  let outcome: ThreadCallOutcome;
  if (error) {
    outcome = { code: error.code, details: error.details };
    parentPort!.postMessage(outcome);
    return;
  }
  const json = new TextEncoder().encode(JSON.stringify(answer));
  outcome = { json };
  parentPort!.postMessage(outcome, [json.buffer]);
});
