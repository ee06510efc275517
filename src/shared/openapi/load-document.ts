/**
 * Schema intake (spec "Schema loading rules"): text → a checked OpenAPI 3.x document with its
 * `$ref`s kept. Swagger 2.0 is converted to OpenAPI 3.0.0. Nothing outside the text is ever read:
 * external references are refused before any library sees the document.
 */
import converter from 'swagger2openapi';
import { LIMITS } from '../limits';
import { invalidSchema, limitExceeded, errorMessage } from '../errors';
import { escapePointerToken, isJsonObject, type JsonObject } from '../json';
import { unsafePatternReason } from '../regex';
import type { OpenApiDocument, SourceFormat } from './document';
import { listOperations } from './operations';
import { parseSchemaText, type ParseLimits } from './parse-text';
import { assertOnlyLocalRefs } from './refs';
import { assertLocalRefsResolve, assertValidOpenApiStructure } from './structure-check';

export interface LoadedSchema {
  /** OpenAPI 3.0/3.1 document, `$ref`s kept (never dereferenced). */
  document: OpenApiDocument;
  /** OpenAPI version of `document` in x.y.z form; `3.0.0` for a converted Swagger 2.0 text. */
  openapiVersion: string;
  sourceFormat: SourceFormat;
  endpointCount: number;
  /** `info.version` of the text, when it is a string. */
  infoVersion: string | undefined;
}

export interface IntakeLimits extends ParseLimits {
  maxOperations: number;
  maxSchemaObjectProperties: number;
}

const DEFAULT_INTAKE_LIMITS: IntakeLimits = {
  maxSchemaBytes: LIMITS.maxSchemaBytes,
  maxSchemaDepth: LIMITS.maxSchemaDepth,
  maxYamlAliases: LIMITS.maxYamlAliases,
  maxOperations: LIMITS.maxOperations,
  maxSchemaObjectProperties: LIMITS.maxSchemaObjectProperties,
};

const MAX_DETAIL_CHARS = 2000;

export async function loadSchema(text: string, limits: IntakeLimits = DEFAULT_INTAKE_LIMITS): Promise<LoadedSchema> {
  const parsed = parseSchemaText(text, limits);
  if (!isJsonObject(parsed)) throw invalidSchema('content is not an OpenAPI document (expected an object at the top level)');
  assertOnlyLocalRefs(parsed);

  const { sourceFormat, declaredVersion } = detectFormat(parsed);
  const infoVersion = isJsonObject(parsed.info) && typeof parsed.info.version === 'string' ? parsed.info.version : undefined;
  const document = sourceFormat === 'swagger-2.0' ? await convertSwagger2(parsed) : (parsed as OpenApiDocument);
  const openapiVersion = sourceFormat === 'swagger-2.0' ? '3.0.0' : toThreePartVersion(declaredVersion);

  const endpointCount = listOperations(document).length;
  if (endpointCount > limits.maxOperations) {
    throw limitExceeded(
      `Invalid schema: ${endpointCount} operations, over the limit of ${limits.maxOperations} (maxOperations)`,
    );
  }
  assertSchemaKeywordsSafe(document, limits);
  assertLocalRefsResolve(document);
  assertValidOpenApiStructure(document);
  return { document, openapiVersion, sourceFormat, endpointCount, infoVersion };
}

function detectFormat(value: JsonObject): { sourceFormat: SourceFormat; declaredVersion: string } {
  const swagger = value.swagger;
  const openapi = value.openapi;
  if (swagger !== undefined) {
    if (String(swagger).startsWith('2.')) return { sourceFormat: 'swagger-2.0', declaredVersion: String(swagger) };
    throw invalidSchema(`unsupported swagger version "${String(swagger)}" (supported: 2.0, 3.0.x, 3.1.x)`);
  }
  if (typeof openapi === 'string') {
    if (/^3\.0(\.\d+)?$/.test(openapi)) return { sourceFormat: 'openapi-3.0', declaredVersion: openapi };
    if (/^3\.1(\.\d+)?$/.test(openapi)) return { sourceFormat: 'openapi-3.1', declaredVersion: openapi };
    throw invalidSchema(`unsupported openapi version "${openapi}" (supported: 2.0, 3.0.x, 3.1.x)`);
  }
  throw invalidSchema('not an OpenAPI document: no "openapi: 3.x" or "swagger: 2.0" field at the top level');
}

function toThreePartVersion(version: string): string {
  return version.split('.').length === 2 ? `${version}.0` : version;
}

async function convertSwagger2(swagger: JsonObject): Promise<OpenApiDocument> {
  try {
    // No `resolve` option: swagger2openapi then follows no references outside the document.
    const result = await converter.convertObj(structuredClone(swagger), { patch: true, warnOnly: true });
    return result.openapi as OpenApiDocument;
  } catch (error) {
    throw invalidSchema(`Swagger 2.0 document could not be converted: ${clip(errorMessage(error))}`, error);
  }
}

/**
 * Before anything is compiled: every `pattern` and `patternProperties` key must compile in RE2 (see
 * src/shared/regex.ts), and no `properties`/`patternProperties` object may exceed the member limit.
 */
function assertSchemaKeywordsSafe(document: OpenApiDocument, limits: IntakeLimits): void {
  const stack: Array<[node: unknown, pointer: string, isNameMap: boolean]> = [[document, '', false]];
  while (stack.length > 0) {
    const [node, pointer, isNameMap] = stack.pop()!;
    if (Array.isArray(node)) {
      node.forEach((child, i) => stack.push([child, `${pointer}/${i}`, false]));
      continue;
    }
    if (!isJsonObject(node)) continue;
    for (const [key, child] of Object.entries(node)) {
      const childPointer = `${pointer}/${escapePointerToken(key)}`;
      if (isNameMap) {
        // A property, response or component that happens to be called `default`, `enum`, `x-…`:
        // a name, never data, so what it holds is checked like everything else.
        stack.push([child, childPointer, false]);
        continue;
      }
      if ((key === 'properties' || key === 'patternProperties') && isJsonObject(child)) {
        checkPropertyCount(Object.keys(child).length, childPointer, limits.maxSchemaObjectProperties);
      }
      if (key === 'pattern' && typeof child === 'string') checkPattern(child, childPointer);
      else if (key === 'patternProperties' && isJsonObject(child)) {
        for (const regex of Object.keys(child)) checkPattern(regex, `${childPointer}/${escapePointerToken(regex)}`);
      }
      if (!LITERAL_KEYS.has(key) && !key.startsWith('x-')) stack.push([child, childPointer, NAME_MAP_KEYS.has(key)]);
    }
  }
}

/** Keys whose values are literal data (examples, enum values...): a "pattern" inside is not a regex. */
const LITERAL_KEYS = new Set(['example', 'examples', 'enum', 'const', 'default']);

/** Keys whose values map user-chosen names to schemas, responses, parameters...: every key there is a name. */
const NAME_MAP_KEYS = new Set([
  'properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'paths', 'webhooks', 'responses',
  'content', 'headers', 'encoding', 'callbacks', 'schemas', 'parameters', 'requestBodies', 'pathItems', 'links',
]);

function checkPropertyCount(count: number, pointer: string, max: number): void {
  if (count > max) {
    throw limitExceeded(
      `Invalid schema: ${count} properties in one object at ${clip(pointer, 200)}, over the limit of ${max} (maxSchemaObjectProperties)`,
    );
  }
}

function checkPattern(pattern: string, pointer: string): void {
  const reason = unsafePatternReason(pattern);
  if (reason !== undefined) {
    throw invalidSchema(
      `pattern "${clip(pattern, 200)}" at ${pointer} is not supported (patterns must be RE2-compatible: no look-around or back-references): ${reason}`,
    );
  }
}

function clip(text: string, max = MAX_DETAIL_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
