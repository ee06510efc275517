/**
 * Swagger 2.0 → OpenAPI 3.0.0 (spec "Schema loading rules" 2), by swagger2openapi, with what it
 * leaves out or changes put back: the response media type where `produces` names none, `x-nullable`
 * and `readOnly` beside a `$ref`, header, path and form collection formats, the form media types
 * `consumes` lists.
 */
import converter from 'swagger2openapi';
import { invalidSchema, errorMessage } from '../errors';
import { isJsonObject, type JsonObject, type JsonValue } from '../json';
import { clip } from '../text';
import { FORM_MEDIA_TYPES, HTTP_METHODS, type OpenApiDocument } from './document';
import { walkDocument } from './document-walk';
import { derefObject } from './refs';

const MAX_DETAIL_CHARS = 2000;

export async function convertSwagger2(swagger: JsonObject): Promise<OpenApiDocument> {
  try {
    // No `resolve` option: swagger2openapi then follows no references outside the document.
    const source = structuredClone(swagger);
    keepCollectionFormats(source);
    defaultResponseMediaType(source);
    const wrapped = wrapRefSiblings(source);
    const result = await converter.convertObj(source, { patch: true, warnOnly: true });
    const document = result.openapi as OpenApiDocument;
    defaultSharedResponseMediaType(swagger, document);
    if (wrapped > 0) unwrapRefSiblings(document);
    keepFormParameters(swagger, document);
    return document;
  } catch (error) {
    throw invalidSchema(`Swagger 2.0 document could not be converted: ${clip(errorMessage(error), MAX_DETAIL_CHARS)}`, error);
  }
}

/**
 * Spec "Schema loading rules" 2: a response schema becomes content `application/json`. Where no
 * `produces` names a media type (the operation's, else the document's), the conversion writes the
 * range of every media type, which takes a body of any type unchecked. A body parameter without
 * `consumes` becomes an `application/json` request body already. An operation that returns a file
 * keeps the range: its download may be of any type. Shared responses (`#/responses`) are converted
 * with the document's `produces` alone, so that is left unset here and they are seen to after the
 * conversion (defaultSharedResponseMediaType).
 */
function defaultResponseMediaType(swagger: JsonObject): void {
  const documentProduces = isMediaTypeList(swagger.produces);
  forEachOperation(swagger, (operation) => {
    // Its own list, or the document's when it has none (an empty list of its own names nothing).
    if (isMediaTypeList(operation.produces) || (operation.produces === undefined && documentProduces)) return;
    // A download (`type: file`) is content of any type: it keeps the range of every media type.
    operation.produces = [returnsFile(swagger, operation) ? ANY_MEDIA_TYPE : DEFAULT_MEDIA_TYPE];
  });
}

/**
 * Without a document `produces`, the conversion gives each shared response with a schema the range
 * of every media type: one that is not a file is content `application/json` (rule 2).
 */
function defaultSharedResponseMediaType(swagger: JsonObject, document: OpenApiDocument): void {
  if (isMediaTypeList(swagger.produces) || !isJsonObject(swagger.responses)) return;
  const converted = isJsonObject(document.components) && isJsonObject(document.components.responses) ? document.components.responses : {};
  for (const [name, response] of Object.entries(swagger.responses)) {
    const content = isJsonObject(converted[name]) ? converted[name].content : undefined;
    if (isFileResponse(swagger, response) || !isJsonObject(content) || Object.keys(content).join() !== ANY_MEDIA_TYPE) continue;
    (converted[name] as JsonObject).content = { [DEFAULT_MEDIA_TYPE]: content[ANY_MEDIA_TYPE]! };
  }
}

const DEFAULT_MEDIA_TYPE = 'application/json';
const ANY_MEDIA_TYPE = '*/*';

function returnsFile(swagger: JsonObject, operation: JsonObject): boolean {
  const responses = isJsonObject(operation.responses) ? Object.values(operation.responses) : [];
  return responses.some((response) => isFileResponse(swagger, response));
}

/** A response (through its `$ref`, a shared one) whose schema is `type: file`. */
function isFileResponse(swagger: JsonObject, response: JsonValue | undefined): boolean {
  const resolved = derefObject(swagger, response);
  return resolved !== undefined && isJsonObject(resolved.schema) && resolved.schema.type === 'file';
}

function isMediaTypeList(value: JsonValue | undefined): boolean {
  return Array.isArray(value) && value.some((mediaType) => typeof mediaType === 'string' && mediaType !== '');
}

function forEachOperation(swagger: JsonObject, visit: (operation: JsonObject) => void): void {
  for (const item of isJsonObject(swagger.paths) ? Object.values(swagger.paths) : []) {
    if (!isJsonObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (isJsonObject(operation)) visit(operation);
    }
  }
}

/** Marks a schema that wrapRefSiblings made, for unwrapRefSiblings to find after the conversion. */
const WRAPPED_REF = 'x-svc-wrapped-ref';

/**
 * The siblings of a schema `$ref` that intake honours in OpenAPI 3.0 (`nullable`, which real
 * documents put there and mean, and `readOnly`: validation/schema-transform.ts) are dropped by the
 * conversion, which keeps a `$ref` object's `$ref` alone: `{$ref: Owner, x-nullable: true}` lost
 * its null. Such a schema is wrapped (`{allOf: [{$ref}], x-nullable: true}`, which converts to
 * `nullable`) and marked; returns how many were.
 */
function wrapRefSiblings(swagger: JsonObject): number {
  let wrapped = 0;
  walkDocument(swagger, undefined, (node, _pointer, names) => {
    const ref = node.$ref;
    if (names || typeof ref !== 'string' || !ref.startsWith('#/definitions/')) return;
    const siblings: JsonObject = {};
    if (node['x-nullable'] === true) siblings['x-nullable'] = true;
    if (node.readOnly === true) siblings.readOnly = true;
    if (Object.keys(siblings).length === 0) return;
    for (const key of Object.keys(node)) delete node[key];
    Object.assign(node, { allOf: [{ $ref: ref }], ...siblings, [WRAPPED_REF]: true });
    wrapped++;
  });
  return wrapped;
}

/** The wrapped schemas back as `{$ref, nullable: true}`, `{$ref, readOnly: true}`: what a 3.0 document says, read the same way. */
function unwrapRefSiblings(document: OpenApiDocument): void {
  walkDocument(document, undefined, (node, _pointer, names) => {
    if (names || node[WRAPPED_REF] !== true) return;
    delete node[WRAPPED_REF];
    const [reference] = Array.isArray(node.allOf) && node.allOf.length === 1 ? node.allOf : [];
    if (!isJsonObject(reference) || typeof reference.$ref !== 'string') return;
    delete node.allOf;
    const siblings = { ...node };
    for (const key of Object.keys(node)) delete node[key];
    Object.assign(node, { $ref: reference.$ref, ...siblings });
  });
}

/** Collection formats the conversion drops outside queries ("no longer supported except for in:query"), kept as `x-collectionFormat`. */
const DROPPED_COLLECTION_FORMATS = new Set(['pipes', 'ssv']);

/**
 * Marks the header and path parameters and the response headers of a Swagger 2.0 document whose
 * arrays are pipe- or space-separated (`X-Ids: 1|2`, `/a/1|2`) with `x-collectionFormat`, which
 * the conversion carries over (it keeps tsv that way itself): read by their commas, their values
 * would be one item.
 */
function keepCollectionFormats(swagger: JsonObject): void {
  const mark = (node: JsonValue | undefined, kept: boolean) => {
    if (isJsonObject(node) && kept && typeof node.collectionFormat === 'string' && DROPPED_COLLECTION_FORMATS.has(node.collectionFormat)) {
      node['x-collectionFormat'] = node.collectionFormat;
    }
  };
  const markParameters = (list: JsonValue | undefined) => {
    for (const parameter of Array.isArray(list) ? list : isJsonObject(list) ? Object.values(list) : []) {
      mark(parameter, isJsonObject(parameter) && (parameter.in === 'header' || parameter.in === 'path'));
    }
  };
  const markResponses = (responses: JsonValue | undefined) => {
    for (const response of isJsonObject(responses) ? Object.values(responses) : []) {
      if (isJsonObject(response) && isJsonObject(response.headers)) for (const header of Object.values(response.headers)) mark(header, true);
    }
  };
  markParameters(swagger.parameters);
  markResponses(swagger.responses);
  for (const item of isJsonObject(swagger.paths) ? Object.values(swagger.paths) : []) {
    if (isJsonObject(item)) markParameters(item.parameters);
  }
  forEachOperation(swagger, (operation) => {
    markParameters(operation.parameters);
    markResponses(operation.responses);
  });
}

/**
 * What each Swagger 2.0 collectionFormat of a form field becomes as an OpenAPI 3 Encoding Object.
 * tsv has no style there, and an Encoding Object takes no extension to say it: such fields are read
 * as repeated fields, like `multi`.
 */
const FORM_COLLECTION_FORMATS: Readonly<Record<string, JsonObject>> = Object.freeze({
  csv: { style: 'form', explode: false },
  ssv: { style: 'spaceDelimited', explode: false },
  pipes: { style: 'pipeDelimited', explode: false },
});

/**
 * What the conversion leaves out of the request body it makes of Swagger 2.0 formData parameters:
 * - the form media types beyond the first that `consumes` lists (an operation that takes both
 *   urlencoded and multipart forms took only multipart);
 * - an array's collectionFormat, csv by default (`ids=1,2,3`): each becomes its field's `encoding`,
 *   read as a query parameter's style is (`multi`, repeated fields, is the default).
 */
function keepFormParameters(swagger: JsonObject, document: OpenApiDocument): void {
  const swaggerPaths = isJsonObject(swagger.paths) ? swagger.paths : {};
  const paths = isJsonObject(document.paths) ? document.paths : {};
  for (const [path, swaggerItem] of Object.entries(swaggerPaths)) {
    const item = paths[path];
    if (!isJsonObject(swaggerItem) || !isJsonObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const swaggerOperation = swaggerItem[method];
      const operation = item[method];
      const content = isJsonObject(operation) ? derefObject(document, operation.requestBody)?.content : undefined;
      if (!isJsonObject(swaggerOperation) || !isJsonObject(content)) continue;
      const converted = FORM_MEDIA_TYPES.find((mediaType) => isJsonObject(content[mediaType]));
      if (converted === undefined) continue;
      const consumes = Array.isArray(swaggerOperation.consumes) ? swaggerOperation.consumes : Array.isArray(swagger.consumes) ? swagger.consumes : [];
      for (const mediaType of FORM_MEDIA_TYPES) {
        if (consumes.includes(mediaType) && content[mediaType] === undefined) content[mediaType] = structuredClone(content[converted]!);
      }
      const formats = formCollectionFormats(swagger, [swaggerItem.parameters, swaggerOperation.parameters]);
      for (const mediaType of FORM_MEDIA_TYPES) {
        const media = content[mediaType];
        if (!isJsonObject(media) || formats.size === 0) continue;
        const encoding = isJsonObject(media.encoding) ? media.encoding : (media.encoding = {});
        for (const [name, format] of formats) if (!isJsonObject(encoding[name])) encoding[name] = { ...format };
      }
    }
  }
}

/** The Encoding Object of each formData array of the path item's and the operation's parameters (the operation's win). */
function formCollectionFormats(swagger: JsonObject, parameterLists: ReadonlyArray<JsonValue | undefined>): Map<string, JsonObject> {
  const formats = new Map<string, JsonObject>();
  for (const list of parameterLists) {
    for (const entry of Array.isArray(list) ? list : []) {
      const parameter = derefObject(swagger, entry);
      if (parameter?.in !== 'formData' || typeof parameter.name !== 'string') continue;
      const collectionFormat = typeof parameter.collectionFormat === 'string' ? parameter.collectionFormat : 'csv';
      const format = parameter.type === 'array' ? FORM_COLLECTION_FORMATS[collectionFormat] : undefined;
      if (format) formats.set(parameter.name, format);
      else formats.delete(parameter.name);
    }
  }
  return formats;
}

