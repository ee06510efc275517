/** RecordInteractions for tests: a client stream of RecordedInteraction messages and its one answer. */
import type * as grpc from '@grpc/grpc-js';
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
