/**
 * A `fetch` that records every exchange (global fetch or undici's; any function with fetch's shape).
 * Hand `adapter.fetch` to the code under test, or `installGlobally()` for code that calls the global.
 * The response body is read from a clone, so the caller still reads the original as usual; the
 * response is handed back once its body has arrived (up to maxBodyBytes), except for streams of
 * messages (server-sent events, JSON lines), which are handed back at once and not recorded.
 */
import { normalizeHeaders } from '../wire';
import type { CapturedInteraction } from '../types';
import { trackReads } from '../recording/read-tracking';
import { InteractionRecorder, isCapturableContentType, recordedBody, type CaptureOptions, type InteractionCapture } from './interaction-recorder';

type Fetch = typeof globalThis.fetch;

export interface FetchAdapterOptions extends CaptureOptions {
  /** The fetch to wrap; default the global one at the time of the call. */
  fetch?: Fetch;
}

export interface FetchAdapter extends InteractionCapture {
  fetch: Fetch;
  /** Replaces `globalThis.fetch` with the recording one; returns the function that restores it. */
  installGlobally(): () => void;
}

export function createFetchAdapter(options: FetchAdapterOptions = {}): FetchAdapter {
  const recorder = new InteractionRecorder(options);
  const original = options.fetch;
  let installedOver: Fetch | undefined;
  const underlying = (): Fetch => original ?? installedOver ?? globalThis.fetch;

  const recordingFetch: Fetch = async (input, init) => {
    // The call goes through untouched; what is recorded is read beside it.
    const requestBody = await requestBodyOf(input, init, recorder.maxBodyBytes);
    const response = await underlying()(input, init);
    const responseBody = await readBody(response.clone(), recorder.maxBodyBytes);
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(input instanceof Request ? input.headers : undefined);
    new Headers(init?.headers).forEach((value, name) => headers.set(name, value));
    const interaction: CapturedInteraction = {
      request: {
        method: (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase(),
        path: `${url.pathname}${url.search}`,
        headers: normalizeHeaders(headers),
        body: requestBody,
      },
      response: {
        statusCode: response.status,
        headers: normalizeHeaders(response.headers),
        body: responseBody,
      },
    };
    await recorder.record(interaction);
    return recorder.tracksReads ? trackingJson(response, interaction) : response;
  };

  return {
    fetch: recordingFetch,
    ...recorder.surface(),
    installGlobally() {
      const previous = globalThis.fetch;
      installedOver = previous;
      globalThis.fetch = recordingFetch;
      return () => {
        if (globalThis.fetch === recordingFetch) globalThis.fetch = previous;
        installedOver = undefined;
      };
    },
  };
}

/**
 * The response, whose `json()` resolves to a body that notes the fields the code reads (in the
 * interaction's `readFields`, set once `json()` is called: a body read otherwise is not tracked).
 * Everything else is the response itself.
 */
function trackingJson(response: Response, interaction: CapturedInteraction): Response {
  return new Proxy(response, {
    get(target, property) {
      if (property === 'json') {
        return async () => {
          const readFields = new Set<string>();
          const tracked = trackReads(await target.json(), readFields);
          interaction.readFields = readFields;
          return tracked.value;
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      // Response methods check their receiver: call them on the response itself.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The request body as sent: from `init.body` when it is text-like, else from a clone of the Request. */
async function requestBodyOf(input: Parameters<Fetch>[0], init: RequestInit | undefined, maxBytes: number): Promise<unknown> {
  const body = init?.body;
  if (body === undefined || body === null) {
    return input instanceof Request && input.body ? readBody(input.clone(), maxBytes) : undefined;
  }
  const contentType = new Headers(init?.headers).get('content-type') ?? undefined;
  let text: string | undefined;
  if (typeof body === 'string') text = body;
  else if (body instanceof URLSearchParams) text = body.toString();
  else if (body instanceof ArrayBuffer) text = Buffer.from(body).toString('utf8');
  else if (ArrayBuffer.isView(body)) text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  else if (body instanceof Blob && body.size <= maxBytes) text = await body.text();
  // Streams and form data are sent without being recorded: reading them would consume them.
  if (text === undefined || Buffer.byteLength(text) > maxBytes) return undefined;
  return recordedBody(text, contentType);
}

/**
 * The body of a response (or request) clone: undefined when absent, too large, or not text-like.
 * The clone is cancelled without waiting: a tee branch's cancel settles only once the other branch
 * (the caller's) is done too.
 */
async function readBody(message: Request | Response, maxBytes: number): Promise<unknown> {
  const contentType = message.headers.get('content-type') ?? undefined;
  if (!message.body) return undefined;
  const reader = message.body.getReader();
  const abandon = () => {
    reader.cancel().catch(() => undefined);
    return undefined;
  };
  if (!isCapturableContentType(contentType)) return abandon();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    let chunk: Awaited<ReturnType<typeof reader.read>>;
    try {
      chunk = await reader.read();
    } catch {
      // A body cut off: recorded without it; the caller's own read reports the failure, as without the adapter.
      return undefined;
    }
    if (chunk.done) break;
    bytes += chunk.value.byteLength;
    if (bytes > maxBytes) return abandon();
    chunks.push(chunk.value);
  }
  return recordedBody(Buffer.concat(chunks).toString('utf8'), contentType);
}
