/**
 * The three input forms of `svc validate`, each turned into the one interaction shape the
 * validation engine takes (bodies as JSON text, '' for none):
 *
 * - combined file: { request: {method, path, headers, body?}, response: {statusCode, headers, body} },
 *   bodies as JSON values;
 * - request file { method, path, headers, body (JSON value or null) } and response file
 *   { status_code, headers, body (a string holding JSON) };
 * - flags: --method, --path, --request-body, --status-code, --response-body.
 *
 * Read leniently where the meaning is clear: `statusCode` and `status_code` are both accepted, and
 * a response-file body that is a JSON value rather than a string is taken as that value. A body
 * without a Content-Type header is sent as application/json, the only type these forms can hold.
 */
import { LIMITS } from '../shared/limits';
import { invalidArgument } from '../shared/errors';
import { isJsonObject, type JsonObject } from '../shared/json';
import type { HttpRequestInput, HttpResponseInput } from '../shared/validation';
import { readJsonFile } from './input-files';

/** Both halves, as the validation engine takes them (its own InteractionInput makes the response optional). */
export interface Interaction {
  request: HttpRequestInput;
  response: HttpResponseInput;
}

export interface InteractionFlags {
  method: string;
  path: string;
  requestBody?: string;
  statusCode: number;
  responseBody?: string;
}

const INPUT_FILE_LIMIT = { maxBytes: LIMITS.cliMaxInputFileBytes, limitName: 'cliMaxInputFileBytes' };
const JSON_CONTENT_TYPE = 'application/json';

export async function readInteractionFile(filePath: string): Promise<Interaction> {
  const what = 'interaction file';
  const value = await readJsonFile(filePath, what, INPUT_FILE_LIMIT);
  const where = `${what} "${filePath}"`;
  const file = expectObject(value, where);
  const request = expectObject(file.request, `${where}: "request"`);
  const response = expectObject(file.response, `${where}: "response"`);
  return {
    request: requestFrom(request, `${where}: request`),
    response: responseFrom(response, `${where}: response`, 'value'),
  };
}

export async function readRequestAndResponseFiles(requestPath: string, responsePath: string): Promise<Interaction> {
  const [request, response] = await Promise.all([
    readJsonFile(requestPath, '--request file', INPUT_FILE_LIMIT),
    readJsonFile(responsePath, '--response file', INPUT_FILE_LIMIT),
  ]);
  const requestWhere = `--request file "${requestPath}"`;
  const responseWhere = `--response file "${responsePath}"`;
  return {
    request: requestFrom(expectObject(request, requestWhere), requestWhere),
    response: responseFrom(expectObject(response, responseWhere), responseWhere, 'text'),
  };
}

export function interactionFromFlags(flags: InteractionFlags): Interaction {
  const requestBody = flags.requestBody ?? '';
  const responseBody = flags.responseBody ?? '';
  return {
    request: { method: flags.method.toUpperCase(), path: flags.path, headers: withJsonContentType({}, requestBody), body: requestBody },
    response: { statusCode: flags.statusCode, headers: withJsonContentType({}, responseBody), body: responseBody },
  };
}

function requestFrom(value: JsonObject, where: string): HttpRequestInput {
  const method = expectString(value.method, `${where} "method"`);
  const path = expectString(value.path, `${where} "path"`);
  const body = bodyFromValue(value.body);
  return { method: method.toUpperCase(), path, headers: withJsonContentType(headersFrom(value.headers, where), body), body };
}

/** `bodyForm`: 'value' when the body is a JSON value (combined file), 'text' when it is a string holding JSON. */
function responseFrom(value: JsonObject, where: string, bodyForm: 'value' | 'text'): HttpResponseInput {
  const statusCode = value.statusCode ?? value.status_code;
  if (typeof statusCode !== 'number' || !Number.isInteger(statusCode) || statusCode < 100 || statusCode > 599) {
    throw invalidArgument(`${where} "statusCode" must be an HTTP status code from 100 to 599`);
  }
  const body = bodyForm === 'text' && typeof value.body === 'string' ? value.body : bodyFromValue(value.body);
  return { statusCode, headers: withJsonContentType(headersFrom(value.headers, where), body), body };
}

/** A JSON value as body text; absent or null means no body. */
function bodyFromValue(body: unknown): string {
  return body === undefined || body === null ? '' : JSON.stringify(body);
}

function headersFrom(value: unknown, where: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  const headers = expectObject(value, `${where} "headers"`);
  const result: Record<string, string> = {};
  for (const [name, headerValue] of Object.entries(headers)) {
    if (typeof headerValue === 'string') result[name] = headerValue;
    else if (typeof headerValue === 'number' || typeof headerValue === 'boolean') result[name] = String(headerValue);
    else throw invalidArgument(`${where} header "${name}" must be a string`);
  }
  return result;
}

function withJsonContentType(headers: Record<string, string>, body: string): Record<string, string> {
  if (body === '' || Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) return headers;
  return { ...headers, 'content-type': JSON_CONTENT_TYPE };
}

function expectObject(value: unknown, where: string): JsonObject {
  if (!isJsonObject(value)) throw invalidArgument(`${where} must be a JSON object`);
  return value;
}

function expectString(value: unknown, where: string): string {
  if (typeof value !== 'string' || value === '') throw invalidArgument(`${where} must be a non-empty string`);
  return value;
}
