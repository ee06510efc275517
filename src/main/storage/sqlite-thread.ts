/**
 * The entry of the thread that owns the embedded SQLite store (started by sqlite-thread-storage.ts,
 * which holds the protocol; never imported): it opens the database (SqliteStorage) and runs each
 * storage call the main thread sends, one message per call. better-sqlite3 is synchronous, and
 * writing a 32 MB registration took the main thread 0.3–0.5 s: here it holds only this thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SvcError, errorMessage } from '../../shared/errors';
import { SqliteStorage } from './sqlite-storage';
import type { StorageCall, StorageThreadMessage, StorageThreadData } from './sqlite-thread-storage';

const port = parentPort!;
const { dataDir } = workerData as StorageThreadData;
const post = (message: StorageThreadMessage, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);

let storage: SqliteStorage;
try {
  // The store's log lines (a refused write) are written by the main thread's logger.
  storage = new SqliteStorage(dataDir, { error: (bindings: object, message: string) => post({ log: { bindings, message } }) });
  post({ opened: true });
} catch (error) {
  post({ openFailed: errorMessage(error) });
  port.close();
}

port.on('message', (call: StorageCall) => {
  const method = storage[call.method] as (...args: unknown[]) => Promise<unknown>;
  method.apply(storage, call.args).then(
    (value) => {
      // A buffer read whole (a schema's bytes) moves to the main thread instead of being copied.
      const owned = Buffer.isBuffer(value) && value.byteOffset === 0 && value.buffer.byteLength === value.byteLength;
      post({ id: call.id, value }, owned ? [value.buffer as ArrayBuffer] : []);
      if (call.method === 'close') port.close();
    },
    (error: unknown) => post({
      id: call.id,
      error: { message: errorMessage(error), ...(error instanceof SvcError && { code: error.code }) },
    }),
  );
});
