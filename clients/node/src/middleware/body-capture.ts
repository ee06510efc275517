/**
 * Capturing the bodies of a node:http exchange without changing what the application sees.
 *
 * - `tapRequestBody` records the request chunks as the application reads them (every way of reading a
 *   Readable emits 'data'), so it neither starts nor pauses the stream.
 * - `readRequestBodyAhead` reads the request body before the handler (strict mode) and puts it back
 *   with `unshift` before the stream ends, so the handler and its body parser read it as usual.
 * - `tapResponse` records what the application writes through `writeHead()`, `write()` and `end()`, and
 *   reports the body and the headers sent once the application has ended the response.
 *
 * Each stops recording past `maxBytes`; the capture is then marked incomplete and is not validated.
 *
 * The taps sit once on Node's prototypes (`IncomingMessage.prototype.emit`, `ServerResponse.prototype`
 * `writeHead`/`write`/`end`) and find the exchanges under validation in WeakMaps; the methods of every other
 * message pass straight through. Giving each request and response methods of its own costs far
 * more: V8 changes the object's shape on every such assignment, measured at about 10 µs a response,
 * on the request path. A message whose methods do not reach the prototype's (a middleware mounted
 * earlier replaced them, or a response of another kind), or that a second middleware taps too, is
 * tapped on the object itself, as before.
 */
import { IncomingMessage, ServerResponse, type OutgoingHttpHeaders } from 'node:http';
import { addOwn } from '../wire';

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
  const taps = prototypeTaps();
  // A second middleware on the same request (one per schema, say) taps the object itself.
  if (request.emit === taps.emit && !requestRecorders.has(request)) {
    requestRecorders.set(request, recorder);
  } else {
    const emit = request.emit as Method;
    request.emit = recordingEmit(() => emit, () => recorder) as typeof request.emit;
  }
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

/**
 * Records what the application writes to `response`, and calls `onEnd` with it once the application
 * has ended the response (its status and headers are final then). A response never ended (the
 * connection went away first) reports nothing.
 */
export function tapResponse(response: ServerResponse, maxBytes: number, onEnd: (body: BodyCapture, headers: OutgoingHttpHeaders) => void): void {
  const tap: ResponseTap = { recorder: new ChunkRecorder(maxBytes), headersToWriteHead: undefined, onEnd };
  const taps = prototypeTaps();
  if (response.writeHead === taps.writeHead && response.write === taps.write && response.end === taps.end && !responseTaps.has(response)) {
    responseTaps.set(response, tap);
    return;
  }
  const writeHead = response.writeHead as Method;
  const write = response.write as Method;
  const end = response.end as Method;
  let untaken: ResponseTap | undefined = tap;
  response.writeHead = recordingWriteHead(() => writeHead, () => tap) as typeof response.writeHead;
  response.write = recordingWrite(() => write, () => tap) as typeof response.write;
  response.end = recordingEnd(() => end, () => {
    const taken = untaken;
    untaken = undefined;
    return taken;
  }) as typeof response.end;
}

/** What `tapResponse` keeps for a response until the application ends it. */
interface ResponseTap {
  recorder: ChunkRecorder;
  /**
   * Headers handed to `writeHead`: Node sends them without adding them to `getHeaders()` unless
   * `setHeader` was used first (Fastify and many plain handlers pass all their headers this way).
   */
  headersToWriteHead: unknown;
  onEnd: (body: BodyCapture, headers: OutgoingHttpHeaders) => void;
}

type Method = (this: any, ...args: any[]) => unknown;

/** Requests under validation, whose 'data' events the prototype's `emit` records. */
const requestRecorders = new WeakMap<IncomingMessage, ChunkRecorder>();
/** Responses under validation, whose writes the prototype's `write` and `end` record. */
const responseTaps = new WeakMap<ServerResponse, ResponseTap>();

let installedTaps: { emit: Method; writeHead: Method; write: Method; end: Method } | undefined;

/** The prototype taps, put in place on first use (loading the package changes nothing of Node's). */
function prototypeTaps(): { emit: Method; writeHead: Method; write: Method; end: Method } {
  return installedTaps ??= {
    emit: tapPrototypeMethod(IncomingMessage.prototype, 'emit', (original) => recordingEmit(original, (request) => requestRecorders.get(request))),
    writeHead: tapPrototypeMethod(ServerResponse.prototype, 'writeHead', (original) => recordingWriteHead(original, (response) => responseTaps.get(response))),
    write: tapPrototypeMethod(ServerResponse.prototype, 'write', (original) => recordingWrite(original, (response) => responseTaps.get(response))),
    end: tapPrototypeMethod(ServerResponse.prototype, 'end', (original) => recordingEnd(original, (response) => {
      const tap = responseTaps.get(response);
      if (tap !== undefined) responseTaps.delete(response);
      return tap;
    })),
  };
}

// The methods that record, on a prototype (the message found in a WeakMap) or on one object (its own
// tap); `original()` is the method each stands in for.

function recordingEmit(original: () => Method, recorderOf: (request: IncomingMessage) => ChunkRecorder | undefined): Method {
  return function emit(this: IncomingMessage, event: unknown, chunk: unknown): unknown {
    if (event === 'data') recorderOf(this)?.add(chunk);
    return Reflect.apply(original(), this, arguments);
  };
}

/** `writeHead(statusCode[, statusMessage][, headers])`: the headers are the last argument, if any. */
function recordingWriteHead(original: () => Method, tapOf: (response: ServerResponse) => ResponseTap | undefined): Method {
  return function writeHead(this: ServerResponse): unknown {
    const tap = tapOf(this);
    if (tap !== undefined && arguments.length > 1) {
      const last: unknown = arguments[arguments.length - 1];
      if (typeof last === 'object' && last !== null) tap.headersToWriteHead = last;
    }
    return Reflect.apply(original(), this, arguments);
  };
}

function recordingWrite(original: () => Method, tapOf: (response: ServerResponse) => ResponseTap | undefined): Method {
  return function write(this: ServerResponse, chunk: unknown, encoding: unknown): unknown {
    tapOf(this)?.recorder.add(chunk, encoding);
    return Reflect.apply(original(), this, arguments);
  };
}

/** `takeTap` hands a response's tap over once: a second `end` passes straight through. */
function recordingEnd(original: () => Method, takeTap: (response: ServerResponse) => ResponseTap | undefined): Method {
  return function end(this: ServerResponse, chunk: unknown, encoding: unknown): unknown {
    const tap = takeTap(this);
    if (tap === undefined) return Reflect.apply(original(), this, arguments);
    // end(callback) carries no chunk, end(chunk, callback) no encoding: the recorder skips what is neither.
    tap.recorder.add(chunk, encoding);
    const result = Reflect.apply(original(), this, arguments);
    tap.onEnd(tap.recorder.capture(), headersAsSent(this, tap.headersToWriteHead));
    return result;
  };
}

/**
 * The response's headers as Node sent them (names in lower case). With headers set before
 * `writeHead`, Node set each of writeHead's over them (one value per name, the last of a repeated
 * one), so the response holds what was sent. With none set before, writeHead's headers went out as
 * given, every line: a repeated name (two Set-Cookie in the flat array form, X-Trace and x-trace in
 * an object) keeps all its values.
 */
function headersAsSent(response: ServerResponse, headersToWriteHead: unknown): OutgoingHttpHeaders {
  const headers = response.getHeaders();
  if (Object.keys(headers).length > 0 || headersToWriteHead === undefined || headersToWriteHead === null) return headers;
  const lines = new Map<string, string[]>();
  const add = (name: unknown, value: unknown) => {
    if (typeof name !== 'string' || value === undefined) return;
    const values = lines.get(name.toLowerCase()) ?? [];
    values.push(...(Array.isArray(value) ? value : [value]).map(String));
    lines.set(name.toLowerCase(), values);
  };
  if (Array.isArray(headersToWriteHead)) {
    // [[name, value], …] or the flat raw form [name, value, name, value, …].
    if (Array.isArray(headersToWriteHead[0])) for (const [name, value] of headersToWriteHead as unknown[][]) add(name, value);
    else for (let i = 0; i + 1 < headersToWriteHead.length; i += 2) add(headersToWriteHead[i], headersToWriteHead[i + 1]);
  } else {
    for (const [name, value] of Object.entries(headersToWriteHead as Record<string, unknown>)) add(name, value);
  }
  // One value stays a string, as getHeaders() gives it; a repeated name keeps the list.
  const sent: OutgoingHttpHeaders = {};
  for (const [name, values] of lines) addOwn(sent, name, values.length === 1 ? values[0]! : values);
  return sent;
}

/**
 * Puts `wrap`'s function on `prototype` under `name`. `original()` is the method it stands in for:
 * the prototype's own, or else the parent's looked up on each call, so that a later patch of the
 * parent (an APM agent's, say) is still called.
 */
function tapPrototypeMethod(prototype: object, name: string, wrap: (original: () => Method) => Method): Method {
  const own = Object.hasOwn(prototype, name) ? (prototype as Record<string, Method>)[name] : undefined;
  const parent = Object.getPrototypeOf(prototype) as Record<string, Method>;
  const tapped = wrap(own === undefined ? () => parent[name]! : () => own);
  Object.defineProperty(prototype, name, { value: tapped, writable: true, configurable: true });
  return tapped;
}
