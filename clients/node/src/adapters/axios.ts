/**
 * Records the exchanges of an axios instance through a response interceptor (error responses too:
 * they are recorded, then the error goes on to the caller). Needs nothing from axios at run time.
 */
import { invalidUse } from '../client-error';
import { normalizeHeaders, type HeadersInput } from '../wire';
import type { CapturedInteraction } from '../types';
import { trackReads } from '../recording/read-tracking';
import { InteractionRecorder, isCapturableContentType, recordedBody, type CaptureOptions, type InteractionCapture } from './interaction-recorder';

/** The parts of an axios request config and response the adapter reads. */
interface AxiosConfigLike {
  method?: string;
  url?: string;
  baseURL?: string;
  headers?: unknown;
  data?: unknown;
}

interface AxiosResponseLike {
  status: number;
  headers?: unknown;
  data?: unknown;
  config?: AxiosConfigLike;
}

export interface AxiosLike {
  interceptors: {
    response: {
      use(onFulfilled: (response: any) => any, onRejected?: (error: any) => any): number;
      eject(id: number): void;
    };
  };
  getUri?(config?: any): string;
}

export interface AxiosAdapter extends InteractionCapture {
  /** Removes the interceptor; idempotent. */
  detach(): void;
}

export function createAxiosAdapter(axios: AxiosLike, options: CaptureOptions = {}): AxiosAdapter {
  if (!axios?.interceptors?.response || typeof axios.interceptors.response.use !== 'function') {
    throw invalidUse('createAxiosAdapter needs an axios instance (axios or axios.create())');
  }
  const recorder = new InteractionRecorder(options);
  const capture = async (response: AxiosResponseLike) => {
    const interaction = toInteraction(axios, response, recorder.maxBodyBytes);
    // The parsed body the code gets notes what it reads; the recorded body stays the plain one.
    if (recorder.tracksReads && response.data !== null && typeof response.data === 'object' && interaction.response.body === response.data) {
      const tracker = trackReads(response.data);
      interaction.readFields = tracker.readFields;
      response.data = tracker.value;
    }
    await recorder.record(interaction);
  };

  let id: number | undefined = axios.interceptors.response.use(
    async (response: AxiosResponseLike) => {
      await capture(response);
      return response;
    },
    async (error: { response?: AxiosResponseLike }) => {
      if (error?.response) await capture(error.response);
      throw error;
    },
  );

  return {
    ...recorder.surface(),
    detach() {
      if (id === undefined) return;
      axios.interceptors.response.eject(id);
      id = undefined;
    },
  };
}

function toInteraction(axios: AxiosLike, response: AxiosResponseLike, maxBodyBytes: number): CapturedInteraction {
  const config = response.config ?? {};
  const requestHeaders = headersOf(config.headers);
  const responseHeaders = headersOf(response.headers);
  const url = new URL(uriOf(axios, config), 'http://localhost');
  return {
    request: {
      method: (config.method ?? 'get').toUpperCase(),
      path: `${url.pathname}${url.search}`,
      headers: requestHeaders,
      body: bodyOf(config.data, requestHeaders['content-type'], maxBodyBytes),
    },
    response: {
      statusCode: response.status,
      headers: responseHeaders,
      body: bodyOf(response.data, responseHeaders['content-type'], maxBodyBytes),
    },
  };
}

function uriOf(axios: AxiosLike, config: AxiosConfigLike): string {
  if (typeof axios.getUri === 'function') return axios.getUri(config);
  const base = config.baseURL ?? '';
  return `${base.replace(/\/$/, '')}${config.url ?? ''}`;
}

/** AxiosHeaders or a plain object → lower-cased names with string values (axios-internal entries dropped). */
function headersOf(headers: unknown): Record<string, string> {
  if (!headers || typeof headers !== 'object') return {};
  const plain = typeof (headers as { toJSON?: unknown }).toJSON === 'function'
    ? (headers as { toJSON(): Record<string, unknown> }).toJSON()
    : (headers as Record<string, unknown>);
  const simple = Object.fromEntries(Object.entries(plain).filter(([, value]) => ['string', 'number'].includes(typeof value) || Array.isArray(value)));
  return normalizeHeaders(simple as HeadersInput);
}

/** Axios hands request bodies as sent (JSON text) and response bodies parsed; streams and forms are left out. */
function bodyOf(data: unknown, contentType: string | undefined, maxBytes: number): unknown {
  if (data === undefined || data === null || data === '') return undefined;
  if (typeof data === 'string') {
    if (Buffer.byteLength(data) > maxBytes || !isCapturableContentType(contentType)) return undefined;
    return recordedBody(data, contentType);
  }
  if (data instanceof Uint8Array || data instanceof ArrayBuffer) {
    const buffer = data instanceof Uint8Array ? Buffer.from(data.buffer, data.byteOffset, data.byteLength) : Buffer.from(data);
    if (buffer.length > maxBytes || !isCapturableContentType(contentType)) return undefined;
    return recordedBody(buffer.toString('utf8'), contentType);
  }
  if (typeof data === 'object' && typeof (data as { pipe?: unknown }).pipe === 'function') return undefined; // a stream
  if (typeof FormData !== 'undefined' && data instanceof FormData) return undefined;
  return data;
}
