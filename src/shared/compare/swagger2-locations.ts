/**
 * Locations in the document the user wrote, for Swagger 2.0 input. The engine compares the converted
 * OpenAPI 3.0 document, so its pointers name `#/components/schemas/Pet`, `requestBody`, `content` and
 * `#/servers`, which a Swagger 2.0 author never wrote; this maps them back through the conversion
 * (swagger2openapi's layout): definitions, parameters and their order, body and formData parameters,
 * response schemas and headers, basePath. A pointer that cannot be mapped exactly is cut back to the
 * nearest node that exists in the original, so a location always opens something real.
 */
import { escapePointerToken, isJsonObject, type JsonObject, type JsonValue } from '../json';
import { isSwagger2 } from '../openapi/document';
import { resolvePointer } from '../openapi/refs';

export function isSwagger2Document(value: unknown): value is JsonObject {
  return isJsonObject(value) && isSwagger2(value);
}

/** `#/a/b~1c` → ['a', 'b/c']. */
export function pointerTokens(pointer: string): string[] {
  const body = pointer.startsWith('#') ? pointer.slice(1) : pointer;
  if (body === '' || body === '/') return [];
  return body.slice(1).split('/').map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

export function tokensToPointer(tokens: readonly string[]): string {
  return `#${tokens.map((token) => `/${escapePointerToken(token)}`).join('')}`;
}

/** The pointer into `original` (a Swagger 2.0 document) for a pointer into its OpenAPI 3.0 conversion `converted`. */
export function toSwagger2Pointer(pointer: string, converted: JsonValue, original: JsonObject): string {
  const tokens = pointerTokens(pointer);
  const mapped = mapTokens(tokens, converted, original) ?? tokens;
  return tokensToPointer(existingPrefix(mapped, original));
}

function mapTokens(tokens: string[], converted: JsonValue, original: JsonObject): string[] | undefined {
  const [head, ...rest] = tokens;
  if (head === 'servers') return ['basePath'];
  if (head === 'components') return mapComponent(rest);
  if (head === 'paths' && rest.length >= 2) return mapOperationPart(rest, converted, original);
  return undefined;
}

function mapComponent([kind, name, ...rest]: string[]): string[] | undefined {
  if (name === undefined) return undefined;
  switch (kind) {
    case 'schemas':
      return ['definitions', name, ...rest];
    case 'parameters':
      return ['parameters', name, ...withoutSchema(rest)];
    case 'requestBodies':
      return ['parameters', name, ...afterContent(rest)];
    case 'responses':
      return ['responses', name, ...responsePart(rest)];
    default:
      return undefined;
  }
}

/** `content/<type>/schema/x` → `schema/x`; `headers/H/schema/x` → `headers/H/x`. */
function responsePart(rest: string[]): string[] {
  if (rest[0] === 'content') return rest.length > 2 ? ['schema', ...rest.slice(3)] : [];
  if (rest[0] === 'headers' && rest.length >= 2) return ['headers', rest[1]!, ...withoutSchema(rest.slice(2))];
  return rest;
}

/** A v2 non-body parameter or header carries its type inline: `schema/type` → `type`. */
function withoutSchema(rest: string[]): string[] {
  return rest[0] === 'schema' ? rest.slice(1) : rest;
}

/** `content/<type>/schema/x` → `schema/x` (the body parameter's schema). */
function afterContent(rest: string[]): string[] {
  return rest[0] === 'content' && rest.length > 2 ? ['schema', ...rest.slice(3)] : [];
}

function mapOperationPart([path, method, part, ...rest]: string[], converted: JsonValue, original: JsonObject): string[] | undefined {
  const base = ['paths', path!, method!];
  if (part === undefined) return base;
  if (part === 'responses' && rest.length > 0) return [...base, 'responses', rest[0]!, ...responsePart(rest.slice(1))];
  if (part === 'requestBody') return requestBodyPointer(base, rest, original);
  if (part === 'parameters' && rest.length > 0) return parameterPointer(base, Number(rest[0]), rest.slice(1), converted, original);
  return undefined;
}

/** The body parameter (`schema/...`), or for a form the formData parameter named by the first property. */
function requestBodyPointer(base: string[], rest: string[], original: JsonObject): string[] | undefined {
  const parameters = operationParameters(original, base);
  const [, mediaType, , ...schemaRest] = rest;
  const body = parameters.find((entry) => entry.parameter.in === 'body');
  if (body) return [...body.at, ...(rest.length > 2 ? ['schema', ...schemaRest] : [])];
  if (mediaType !== undefined && schemaRest[0] === 'properties' && schemaRest[1] !== undefined) {
    const field = parameters.find((entry) => entry.parameter.in === 'formData' && entry.parameter.name === schemaRest[1]);
    if (field) return [...field.at, ...schemaRest.slice(2)];
  }
  return base;
}

/** The converted parameter at `index`, found again by `in` and `name` among the original's (path item or operation). */
function parameterPointer(base: string[], index: number, rest: string[], converted: JsonValue, original: JsonObject): string[] | undefined {
  const convertedList = resolvePointer(converted, tokensToPointer([...base, 'parameters']));
  if (!Array.isArray(convertedList) || !Number.isInteger(index)) return undefined;
  const wanted = derefed(converted, convertedList[index]);
  if (!wanted) return undefined;
  const match = operationParameters(original, base).find((entry) => entry.parameter.in === wanted.in && entry.parameter.name === wanted.name);
  return match ? [...match.at, ...withoutSchema(rest)] : undefined;
}

interface OriginalParameter {
  parameter: JsonObject;
  /** Tokens of the parameter in the original: operation level, path-item level, or its `#/parameters/...` definition. */
  at: string[];
}

function operationParameters(original: JsonObject, base: string[]): OriginalParameter[] {
  const found: OriginalParameter[] = [];
  const levels = [[...base, 'parameters'], [...base.slice(0, 2), 'parameters']];
  for (const level of levels) {
    const list = resolvePointer(original, tokensToPointer(level));
    if (!Array.isArray(list)) continue;
    list.forEach((item, index) => {
      const parameter = derefed(original, item);
      if (parameter) found.push({ parameter, at: [...level, String(index)] });
    });
  }
  return found;
}

function derefed(root: JsonValue, value: JsonValue | undefined): JsonObject | undefined {
  if (isJsonObject(value) && typeof value.$ref === 'string') {
    const target = resolvePointer(root, value.$ref);
    return isJsonObject(target) ? target : undefined;
  }
  return isJsonObject(value) ? value : undefined;
}

/** The longest prefix of `tokens` that names a node of `root`. */
function existingPrefix(tokens: string[], root: JsonValue): string[] {
  for (let length = tokens.length; length > 0; length--) {
    if (resolvePointer(root, tokensToPointer(tokens.slice(0, length))) !== undefined) return tokens.slice(0, length);
  }
  return [];
}
