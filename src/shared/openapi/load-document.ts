/**
 * Schema intake (spec "Schema loading rules"): text → a checked OpenAPI 3.x document with its
 * `$ref`s kept. Swagger 2.0 is converted to OpenAPI 3.0.0. Nothing outside the text is ever read:
 * external references are refused before any library sees the document.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import converter from 'swagger2openapi';
import { LIMITS } from '../limits';
import { invalidSchema, isSvcError, limitExceeded, errorMessage } from '../errors';
import { escapePointerToken, isJsonObject, type JsonObject } from '../json';
import { unsafePatternReason } from '../regex';
import { HTTP_METHODS, type OpenApiDocument, type SourceFormat } from './document';
import { listOperations } from './operations';
import { parseSchemaText, type ParseLimits } from './parse-text';
import { assertOnlyLocalRefs } from './refs';

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
}

const DEFAULT_INTAKE_LIMITS: IntakeLimits = {
  maxSchemaBytes: LIMITS.maxSchemaBytes,
  maxSchemaDepth: LIMITS.maxSchemaDepth,
  maxYamlAliases: LIMITS.maxYamlAliases,
  maxOperations: LIMITS.maxOperations,
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
  assertPatternsCompile(document);
  await validateOpenApi(document);
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

/** Every `pattern` and `patternProperties` key must compile in RE2 (see src/shared/regex.ts). */
function assertPatternsCompile(document: OpenApiDocument): void {
  // Example and literal values may hold a "pattern" key that is data, not a regex.
  const dataKeys = new Set(['example', 'examples', 'enum', 'const', 'default']);
  const stack: Array<[unknown, string]> = [[document, '']];
  while (stack.length > 0) {
    const [node, pointer] = stack.pop()!;
    if (Array.isArray(node)) {
      node.forEach((child, i) => stack.push([child, `${pointer}/${i}`]));
      continue;
    }
    if (!isJsonObject(node)) continue;
    for (const [key, child] of Object.entries(node)) {
      const childPointer = `${pointer}/${escapePointerToken(key)}`;
      if (key === 'pattern' && typeof child === 'string') checkPattern(child, childPointer);
      else if (key === 'patternProperties' && isJsonObject(child)) {
        for (const regex of Object.keys(child)) checkPattern(regex, `${childPointer}/${escapePointerToken(regex)}`);
      }
      if (!dataKeys.has(key) && !key.startsWith('x-')) stack.push([child, childPointer]);
    }
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

/** Structural validation by swagger-parser, on a copy (it dereferences in place). */
async function validateOpenApi(document: OpenApiDocument): Promise<void> {
  const copy = structuredClone(document);
  fillMissingResponses(copy);
  try {
    await SwaggerParser.validate(copy as never, {
      resolve: { external: false },
      dereference: { circular: 'ignore' },
    });
  } catch (error) {
    if (isSvcError(error)) throw error;
    throw invalidSchema(clip(describeValidationError(error)), error);
  }
}

/**
 * An operation without `responses` is accepted (real documents have them and tools read them
 * fine); only the validation copy gets a placeholder so the structural check can run.
 */
function fillMissingResponses(document: OpenApiDocument): void {
  const paths = isJsonObject(document.paths) ? document.paths : {};
  for (const pathItem of Object.values(paths)) {
    if (!isJsonObject(pathItem)) continue;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (isJsonObject(operation) && operation.responses === undefined) {
        operation.responses = { default: { description: 'not declared' } };
      }
    }
  }
}

function describeValidationError(error: unknown): string {
  const message = errorMessage(error).replace(/\s+/g, ' ').trim();
  return message.replace(/^Swagger schema validation failed\.?\s*/i, 'not a valid OpenAPI document: ');
}

function clip(text: string, max = MAX_DETAIL_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
