/**
 * Capturing the bodies of a node:http exchange without changing what the application sees.
 *
 * - `tapRequestBody` records the request chunks as the application reads them (every way of reading a
 *   Readable emits 'data'), so it neither starts nor pauses the stream.
 * - `readRequestBodyAhead` reads the request body before the handler (strict mode) and puts it back
 *   with `unshift` before the stream ends, so the handler and its body parser read it as usual.
 * - `tapResponseBody` records what the application writes through `write()` / `end()`.
 *
 * Each stops recording past `maxBytes`; the capture is then marked incomplete and is not validated.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface BodyCapture {
  text: string;
  /** False when the body was larger than the limit. */
  complete: boolean;
  /** Bytes were seen (a request body the application never read shows none). */
  seen: boolean;
}

/** Keeps the chunks as the application hands them over; the copy into one string waits for `capture()`. */
class ChunkRecorder {
  readonly #chunks: Array<string | Uint8Array> = [];
  readonly #encodings: Array<BufferEncoding | undefined> = [];
  #bytes = 0;
  #overflow = false;

  constructor(private readonly maxBytes: number) {}

  add(chunk: unknown, encoding?: unknown): void {
    if (this.#overflow || (typeof chunk !== 'string' && !(chunk instanceof Uint8Array)) || chunk.length === 0) return;
    const chunkEncoding = typeof chunk === 'string' && typeof encoding === 'string' ? (encoding as BufferEncoding) : undefined;
    this.#bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk, chunkEncoding) : chunk.byteLength;
    if (this.#bytes > this.maxBytes) {
      this.#overflow = true;
      this.#chunks.length = 0;
      return;
    }
    this.#chunks.push(chunk);
    this.#encodings.push(chunkEncoding);
  }

  capture(): BodyCapture {
    if (this.#overflow) return { text: '', complete: false, seen: true };
    const text = this.#chunks.length === 1 && typeof this.#chunks[0] === 'string' && this.#encodings[0] === undefined
      ? this.#chunks[0]
      : Buffer.concat(this.#chunks.map((chunk, i) => (typeof chunk === 'string' ? Buffer.from(chunk, this.#encodings[i]) : chunk))).toString('utf8');
    return { text, complete: true, seen: this.#bytes > 0 };
  }
}

export function tapRequestBody(request: IncomingMessage, maxBytes: number): () => BodyCapture {
  const recorder = new ChunkRecorder(maxBytes);
  const emit = request.emit;
  request.emit = function tappedEmit(this: IncomingMessage, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'data') recorder.add(args[0]);
    return emit.call(this, event, ...args);
  } as typeof request.emit;
  return () => recorder.capture();
}

/** Whether the request announces a body (RFC 9112 §6.3: Content-Length or Transfer-Encoding). */
export function requestHasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

export function readRequestBodyAhead(request: IncomingMessage, maxBytes: number): Promise<BodyCapture> {
  if (!requestHasBody(request)) return Promise.resolve({ text: '', complete: true, seen: false });
  // Someone already reads or has read the stream: leave it alone.
  if (request.readableEnded || request.readableFlowing === true) return Promise.resolve({ text: '', complete: false, seen: false });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const finish = (complete: boolean) => {
      request.off('readable', onReadable);
      request.off('end', onEnd);
      request.off('error', onError);
      const body = Buffer.concat(chunks);
      // Put the bytes back before 'end' is emitted: the handler reads them as if untouched.
      if (!request.readableEnded && body.length > 0) request.unshift(body);
      resolve({ text: complete ? body.toString('utf8') : '', complete, seen: body.length > 0 });
    };
    const onReadable = () => {
      let chunk: Buffer | null;
      while ((chunk = request.read() as Buffer | null) !== null) {
        chunks.push(chunk);
        bytes += chunk.length;
        if (bytes > maxBytes) return finish(false);
      }
      if (request.complete) finish(true);
    };
    const onEnd = () => finish(true);
    const onError = (error: Error) => {
      request.off('readable', onReadable);
      request.off('end', onEnd);
      reject(error);
    };
    request.on('readable', onReadable);
    request.on('end', onEnd);
    request.once('error', onError);
  });
}

export function tapResponseBody(response: ServerResponse, maxBytes: number): () => BodyCapture {
  const recorder = new ChunkRecorder(maxBytes);
  const write = response.write;
  const end = response.end;
  response.write = function tappedWrite(this: ServerResponse, chunk: unknown, ...rest: unknown[]): boolean {
    recorder.add(chunk, rest[0]);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof response.write;
  response.end = function tappedEnd(this: ServerResponse, chunk?: unknown, ...rest: unknown[]): ServerResponse {
    recorder.add(chunk, rest[0]);
    return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
  } as typeof response.end;
  return () => recorder.capture();
}
