/**
 * Every message shape the validation engine produces (listed in docs/validation.md, "Validation messages"). Each names where the
 * violation is: `request body`, `response body`, `parameter "<name>" in <location>` or
 * `response header "<name>"`, followed by the JSON pointer of a nested value.
 * `Path not found: <path>` comes from the service's error catalog.
 */
import { formatBytes } from '../limits';
import { messages as catalog } from '../errors';
import { clip, head, tail } from '../text';

export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';
export type MessagePart = 'request' | 'response';

/** Quotes a value for a message: JSON string escaping, cut to `maxChars`. */
export function quote(value: string, maxChars: number): string {
  return JSON.stringify(clip(value, maxChars));
}


/**
 * A JSON pointer for a message. One longer than `maxChars` keeps its first and last half around "…"
 * (where the value starts and which item it is) and gives its full length.
 */
export function shortPointer(pointer: string, maxChars: number): string {
  if (pointer.length <= maxChars) return pointer;
  const half = Math.max(1, Math.floor(maxChars / 2));
  return `${head(pointer, half)}…${tail(pointer, half)} (pointer of ${pointer.length} characters)`;
}

export const where = Object.freeze({
  body: (part: MessagePart) => `${part} body`,
  parameter: (name: string, location: ParameterLocation) => `parameter "${name}" in ${location}`,
  responseHeader: (name: string) => `response header "${name}"`,
  formField: (part: MessagePart, name: string) => `${part} body field "${name}"`,
});

/** `<where>[ <pointer>]: <text>`, the one shape of every located violation. */
export function located(place: string, pointer: string, text: string): string {
  return pointer === '' ? `${place}: ${text}` : `${place} ${pointer}: ${text}`;
}

export const validationMessages = Object.freeze({
  // Call input
  invalidMethod: (method: string, maxChars: number) =>
    `invalid HTTP method ${quote(method, maxChars)} (expected one of GET, PUT, POST, DELETE, OPTIONS, HEAD, PATCH, TRACE)`,
  pathNotAbsolute: (path: string, maxChars: number) =>
    `request path ${quote(path, maxChars)} is not valid: it must start with "/"`,
  pathTooLong: (length: number, limit: number) =>
    `request path is ${length} characters, over the limit of ${limit} (maxPathChars)`,
  invalidStatusCode: (status: number) => `response status ${status} is not a valid HTTP status code (100-599)`,

  // Routing
  pathNotFound: (path: string, maxChars: number) => catalog.pathNotFound(clip(path, maxChars)),
  methodNotDefined: (method: string, template: string, defined: readonly string[]) =>
    `method ${method} is not defined for ${template} (defined: ${defined.join(', ')})`,
  selectorNotMatched: (method: string, path: string, keys: readonly string[], maxChars: number) =>
    `no operation of ${method} ${quote(path, maxChars)} is selected by the request's query or headers (path keys: ${keys.join(', ')})`,
  schemaNotCompiled: (subject: string, operation: string, reason: string) =>
    `${subject} schema of ${operation} could not be compiled: ${reason}`,

  // Parameters and headers
  parameterRequired: (place: string) => `${place} is required`,
  notAValid: (place: string, value: string, type: string, maxChars: number) =>
    `${place}: value ${quote(value, maxChars)} is not a valid ${type}`,
  notValidJson: (place: string, value: string, maxChars: number) =>
    `${place}: value ${quote(value, maxChars)} is not valid JSON`,
  valueTooDeep: (place: string, limit: number) =>
    `${place}: value nests arrays/objects deeper than the limit of ${limit} levels (maxBodyDepth)`,

  // Bodies
  bodyRequired: (part: MessagePart) => `${part} body is required`,
  bodyTooLarge: (part: MessagePart, bytes: number, limit: number) =>
    `${part} body is ${formatBytes(bytes)}, over the limit of ${formatBytes(limit)} (maxBodyBytes)`,
  bodyTooDeep: (part: MessagePart, limit: number) =>
    `${part} body nests arrays/objects deeper than the limit of ${limit} levels (maxBodyDepth)`,
  bodyNotJson: (part: MessagePart, reason: string) => `${part} body is not valid JSON: ${reason}`,
  bodyNotForm: (part: MessagePart, mediaType: string, reason: string) => `${part} body is not valid ${mediaType}: ${reason}`,
  contentTypeMissing: (part: MessagePart, expected: string) =>
    `${part} content type is missing (expected ${expected})`,
  contentTypeNotAllowed: (part: MessagePart, contentType: string, expected: string, maxChars: number) =>
    `${part} content type ${quote(contentType, maxChars)} is not allowed (expected ${expected})`,
  schemaRecursion: (place: string) =>
    `${place} could not be validated: the schema refers to itself without end`,

  // Responses
  statusNotDefined: (status: number, operation: string) => `response status ${status} is not defined for ${operation}`,

  // The list
  notListed: (count: number, limit: string) =>
    `… and at least ${count} more violation${count === 1 ? '' : 's'} not listed (limit ${limit})`,
});
