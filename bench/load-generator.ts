/**
 * Open-loop HTTP load from a worker thread, so the app under test has its event loop to itself:
 * requests start on a fixed schedule whatever the answers do, over keep-alive connections, and
 * each latency is measured from the moment its request was sent. The worker's source (what it
 * sends, at `workerData.ratePerSecond`) belongs to the suite; it answers each `{ id, url, durationMs }`
 * with `{ id, latencies, errors }`.
 */
import { Worker } from 'node:worker_threads';

export interface LoadSlice {
  /** Latencies (ms) of the requests of one slice, in completion order. */
  latencies: number[];
  errors: number;
}

export class LoadGenerator {
  readonly #worker: Worker;
  #next = 0;

  constructor(workerSource: string, ratePerSecond: number) {
    this.#worker = new Worker(workerSource, { eval: true, workerData: { ratePerSecond } });
  }

  /** Sends load to `url` for `durationMs`. */
  run(url: string, durationMs: number): Promise<LoadSlice> {
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      const onMessage = (message: LoadSlice & { id: number }) => {
        if (message.id !== id) return;
        this.#worker.off('message', onMessage);
        this.#worker.off('error', reject);
        resolve(message);
      };
      this.#worker.on('message', onMessage);
      this.#worker.once('error', reject);
      this.#worker.postMessage({ id, url, durationMs });
    });
  }

  async close(): Promise<void> {
    await this.#worker.terminate();
  }
}
