/**
 * Interactions as users hand them in → the service's RequestData / ResponseData messages.
 *
 * Bodies are encoded exactly once: text and bytes are taken as already encoded, anything else is
 * JSON-encoded. Header names are lower-cased and multi-valued headers joined with ", " (RFC 9110).
 */
import type { RequestData } from './generated/svc/RequestData';
import type { ResponseData } from './generated/svc/ResponseData';
import { invalidUse } from './client-error';
import type { HttpBody, HttpHeaders, ValidationRequest, ValidationResponse } from './types';

const JSON_CONTENT_TYPE = 'application/json';

/** Anything with `forEach(value, name)`: fetch's Headers, a Map. */
interface HeaderCollection {
  forEach(callback: (value: string, name: string) => void): void;
}

export type HeadersInput = HttpHeaders | HeaderCollection;

export function normalizeHeaders(headers: HeadersInput | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  if (headers === undefined || headers === null) return result;
  // Names that differ only in case are one header (RFC 9110), their values joined in the order given.
  const add = (name: string, value: string) => {
    const key = name.toLowerCase();
    if (Object.hasOwn(result, key)) result[key] = `${result[key]}, ${value}`;
    else addOwn(result, key, value);
  };
  if (typeof (headers as HeaderCollection).forEach === 'function') {
    (headers as HeaderCollection).forEach((value, name) => add(name, String(value)));
    return result;
  }
  for (const [name, value] of Object.entries(headers as HttpHeaders)) {
    if (value !== undefined) add(name, Array.isArray(value) ? value.join(', ') : String(value));
  }
  return result;
}

/**
 * `record[key] = value` that also keeps a key named __proto__ (as an own property: the assignment
 * would set the object's prototype instead, and drop the header).
 */
export function addOwn<T>(record: Record<string, T>, key: string, value: T): void {
  if (key === '__proto__') Object.defineProperty(record, key, { value, enumerable: true, writable: true, configurable: true });
  else record[key] = value;
}

/** The body as text, and whether this function JSON-encoded it (then a JSON content type is implied). */
export function encodeBody(body: HttpBody): { text: string; jsonEncoded: boolean } {
  if (body === undefined || body === null) return { text: '', jsonEncoded: false };
  if (typeof body === 'string') return { text: body, jsonEncoded: false };
  if (body instanceof Uint8Array) return { text: Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8'), jsonEncoded: false };
  if (body instanceof ArrayBuffer) return { text: Buffer.from(body).toString('utf8'), jsonEncoded: false };
  return { text: JSON.stringify(body), jsonEncoded: true };
}

export function toRequestData(request: ValidationRequest): RequestData {
  if (request === null || typeof request !== 'object') throw invalidUse('request must be an object with method and path');
  if (typeof request.method !== 'string' || request.method === '') throw invalidUse('request.method must be a non-empty string');
  if (typeof request.path !== 'string' || request.path === '') throw invalidUse('request.path must be a non-empty string');
  const { headers, body } = encodeMessage(request.headers, request.body);
  return { method: request.method.toUpperCase(), path: request.path, headers, body };
}

export function toResponseData(response: ValidationResponse): ResponseData {
  if (response === null || typeof response !== 'object') throw invalidUse('response must be an object with statusCode');
  if (!Number.isInteger(response.statusCode)) throw invalidUse('response.statusCode must be an integer');
  const { headers, body } = encodeMessage(response.headers, response.body);
  return { status_code: response.statusCode, headers, body };
}

function encodeMessage(rawHeaders: HeadersInput | undefined, rawBody: HttpBody): { headers: Record<string, string>; body: string } {
  const headers = normalizeHeaders(rawHeaders);
  const { text, jsonEncoded } = encodeBody(rawBody);
  if (jsonEncoded && headers['content-type'] === undefined) headers['content-type'] = JSON_CONTENT_TYPE;
  return { headers, body: text };
}

/** JSON text → value; text that is not JSON stays text; empty text is `undefined`. */
export function parseBodyText(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
