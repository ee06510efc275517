/**
 * Bytes of answers being built and sent at once, all callers together (GetSchema: schemaAnswerMaxBytesInFlight).
 * A reservation is taken before an answer is built and given back when its call ends, however it ends:
 * grpc-js emits 'cancelled' on a ServerUnaryCall once its status has been sent (after the last data
 * frame was handed to HTTP/2) and also when the stream closes early (client cancelled, reset, connection
 * lost), so one listener covers finished, failed and cancelled calls.
 */
import type { ServerUnaryCall } from '@grpc/grpc-js';

export class BytesInFlight {
  #held = 0;

  constructor(readonly limit: number) {}

  /** Bytes reserved now. */
  get held(): number {
    return this.#held;
  }

  /**
   * Reserves `bytes` and returns the function that gives them back (only the first call counts), or
   * undefined when they would pass the limit. One reservation larger than the whole limit is let
   * through when nothing else is held, so any answer can be sent.
   */
  tryReserve(bytes: number): (() => void) | undefined {
    if (this.#held > 0 && this.#held + bytes > this.limit) return undefined;
    this.#held += bytes;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#held -= bytes;
    };
  }

  /**
   * Reserves `bytes` until `call` ends. True when reserved (or when the call has already ended, so
   * nothing will be sent), false when at the limit.
   */
  holdForCall(call: ServerUnaryCall<unknown, unknown>, bytes: number): boolean {
    if (call.cancelled) return true;
    const release = this.tryReserve(bytes);
    if (!release) return false;
    call.once('cancelled', release);
    return true;
  }
}
