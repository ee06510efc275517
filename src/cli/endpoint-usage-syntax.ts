/**
 * The compact `--endpoints` syntax of `svc register-consumer`:
 *
 *   endpoints := entry (';' entry)*          entries may also be separated by line breaks
 *   entry     := METHOD ' ' PATH [':' FIELDS]
 *   FIELDS    := field (',' field)*          response fields the consumer reads
 *
 * for example `GET /users/{id}:id,email;POST /users`. METHOD is any case; PATH is the schema's
 * path template. The field list starts at the LAST colon of an entry, so a path that itself
 * holds a colon (`/jobs/{id}:cancel`) is written with a trailing colon: `POST /jobs/{id}:cancel:`.
 * The same endpoint listed twice is one endpoint with the fields of both.
 */
import { UsageError } from 'clipanion';
import { HTTP_METHODS, isHttpMethod } from '../shared/openapi/document';

export interface EndpointUsageInput {
  method: string;
  path: string;
  usedFields: string[];
}

const FLAG = '--endpoints';

export function parseEndpointUsages(text: string): EndpointUsageInput[] {
  const byEndpoint = new Map<string, EndpointUsageInput>();
  const entries = text.split(/[;\n]/).map((entry) => entry.trim());
  entries.forEach((entry, index) => {
    if (entry === '') return;
    const usage = parseEntry(entry, index + 1);
    const key = `${usage.method} ${usage.path}`;
    const known = byEndpoint.get(key);
    if (known) known.usedFields = [...new Set([...known.usedFields, ...usage.usedFields])];
    else byEndpoint.set(key, usage);
  });
  if (byEndpoint.size === 0) throw new UsageError(`${FLAG} lists no endpoint (expected for example "GET /users/{id}:id,email;POST /users")`);
  return [...byEndpoint.values()];
}

/** The inverse of parseEndpointUsages, for messages and round trips. */
export function formatEndpointUsages(usages: readonly EndpointUsageInput[]): string {
  return usages
    .map(({ method, path, usedFields }) => {
      const needsColon = usedFields.length > 0 || path.includes(':');
      return `${method} ${path}${needsColon ? `:${usedFields.join(',')}` : ''}`;
    })
    .join(';');
}

function parseEntry(entry: string, position: number): EndpointUsageInput {
  const fail = (reason: string): never => {
    throw new UsageError(`${FLAG} entry ${position} ("${entry}"): ${reason}`);
  };
  const match = /^(\S+)\s+(.+)$/.exec(entry);
  if (!match) return fail('expected "<METHOD> <path>[:<field>,<field>...]"');
  const method = match[1]!.toLowerCase();
  if (!isHttpMethod(method)) {
    return fail(`unknown HTTP method "${match[1]}" (one of ${HTTP_METHODS.map((m) => m.toUpperCase()).join(', ')})`);
  }

  const rest = match[2]!;
  const colon = rest.lastIndexOf(':');
  const path = (colon < 0 ? rest : rest.slice(0, colon)).trim();
  const fieldList = colon < 0 ? '' : rest.slice(colon + 1).trim();
  if (!path.startsWith('/')) return fail(`the path must be a template starting with "/" (got "${path}")`);
  if (/\s/.test(path)) return fail(`the path must not contain spaces (got "${path}")`);

  const usedFields = fieldList === '' ? [] : fieldList.split(',').map((field) => field.trim());
  for (const field of usedFields) {
    if (field === '') return fail('empty field name in the field list (write fields as "id,email")');
    if (/\s/.test(field)) return fail(`field names must not contain spaces (got "${field}")`);
  }
  return { method: method.toUpperCase(), path, usedFields: [...new Set(usedFields)] };
}
