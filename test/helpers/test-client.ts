/**
 * A promisified client for any operation, without the server's modules: worker threads of a test
 * (thread-call-worker.ts) load it alone.
 */
import * as grpc from '@grpc/grpc-js';
import { loadSvcProto } from '@svc/client/protocol';
import type { ContractValidatorClient } from '@svc/client/protocol';
import { LIMITS } from '../../src/shared/limits';

export type TestClient = ReturnType<typeof createTestClient>;

/** `client.call('GetSchema', {...})` resolves with the response or rejects with the ServiceError. */
export function createTestClient(address: string, credentials = grpc.credentials.createInsecure(), options: grpc.ClientOptions = {}) {
  const Client = loadSvcProto().proto.svc.ContractValidator;
  const raw: ContractValidatorClient = new Client(address, credentials, {
    'grpc.max_receive_message_length': LIMITS.maxGrpcMessageBytes,
    'grpc.max_send_message_length': LIMITS.maxGrpcMessageBytes,
    ...options,
  });
  return {
    raw,
    call<R = any>(method: string, request: object, opts: { deadlineMs?: number; metadata?: grpc.Metadata } = {}): Promise<R> {
      const fn = (raw as unknown as Record<string, Function>)[method];
      if (typeof fn !== 'function') throw new Error(`no such operation ${method}`);
      const deadline = new Date(Date.now() + (opts.deadlineMs ?? 30_000));
      return new Promise((resolve, reject) => {
        fn.call(raw, request, opts.metadata ?? new grpc.Metadata(), { deadline }, (error: grpc.ServiceError | null, response: R) =>
          error ? reject(error) : resolve(response));
      });
    },
    close() {
      raw.close();
    },
  };
}
