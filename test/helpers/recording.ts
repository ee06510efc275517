/** RecordInteractions for tests: a client stream of RecordedInteraction messages and its one answer. */
import type * as grpc from '@grpc/grpc-js';
import { contractValidatorDefinition } from '@svc/client/protocol';
import type { TestClient } from './server';

export interface RecordAnswer {
  accepted: number;
  dropped: number;
  message: string;
}

/** Streams the interactions over one RecordInteractions call and resolves with the server's answer. */
export function recordInteractions(client: TestClient, entries: Iterable<object>): Promise<RecordAnswer> {
  return new Promise((resolve, reject) => {
    const raw = client.raw as unknown as { RecordInteractions(cb: (e: grpc.ServiceError | null, r: RecordAnswer) => void): grpc.ClientWritableStream<object> };
    const stream = raw.RecordInteractions((error, response) => (error ? reject(error) : resolve(response)));
    for (const entry of entries) stream.write(entry);
    stream.end();
  });
}

/**
 * One RecordInteractions call carrying messages already encoded (or malformed on purpose): the
 * sender does no encoding work meanwhile, and bytes no encoder would write can be sent.
 */
export function recordEncoded(client: grpc.Client, messages: readonly Buffer[]): Promise<RecordAnswer> {
  const { responseDeserialize } = contractValidatorDefinition().RecordInteractions;
  return new Promise((resolve, reject) => {
    const stream = client.makeClientStreamRequest(
      '/svc.ContractValidator/RecordInteractions', (bytes: Buffer) => bytes, responseDeserialize,
      (error, answer) => (error ? reject(error) : resolve(answer as unknown as RecordAnswer)),
    );
    stream.on('error', () => undefined); // a failure arrives through the callback
    for (const message of messages) stream.write(message);
    stream.end();
  });
}
