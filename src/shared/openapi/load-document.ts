/**
 * Schema intake (spec "Schema loading rules"): text → a checked OpenAPI 3.x document with its
 * `$ref`s kept. Swagger 2.0 is converted to OpenAPI 3.0.0. Nothing outside the text is ever read:
 * external references are refused before any library sees the document.
 */
import converter from 'swagger2openapi';
import { LIMITS } from '../limits';
import { invalidSchema, limitExceeded, errorMessage } from '../errors';
import { escapePointerToken, isJsonObject, type JsonObject, type JsonValue } from '../json';
import { planPattern } from '../regex';
import { FORM_MEDIA_TYPES, HTTP_METHODS, type OpenApiDocument, type SourceFormat } from './document';
import { walkDocument } from './document-walk';
import { IntakeWarningCode, IntakeWarnings, type IntakeWarning } from './intake-warnings';
import { listOperations } from './operations';
import { parseSchemaText, type ParseLimits } from './parse-text';
import { splitQuerySelector } from './query-selector-paths';
import { assertOnlyLocalRefs, derefObject, discriminatorMappingPointer, resolveJsonPointer } from './refs';
import { assertLocalRefsResolve, assertValidOpenApiStructure } from './structure-check';
import { resolveSchemaIdentifiers } from './schema-resources';

export interface LoadedSchema {
  /** OpenAPI 3.0/3.1 document, `$ref`s kept (never dereferenced). */
  document: OpenApiDocument;
  /** OpenAPI version of `document` in x.y.z form; `3.0.0` for a converted Swagger 2.0 text. */
  openapiVersion: string;
  sourceFormat: SourceFormat;
  endpointCount: number;
  /** `info.version` of the text, when it is a string. */
  infoVersion: string | undefined;
  /** What was read leniently (ignored, relaxed, not enforced), each with a JSON pointer into `document`. */
  warnings: IntakeWarning[];
  /** Every warning by code, including those left out of `warnings` (MAX_LISTED_WARNINGS). */
  warningCounts: Partial<Record<IntakeWarningCode, number>>;
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

/**
 * `text` is the document as decoded text; given as bytes (a file), it must be valid UTF-8. A
 * U+FFFD in text is an ordinary character: validity is decided on bytes where there are bytes.
 */
export async function loadSchema(text: string | Uint8Array, limits: IntakeLimits = DEFAULT_INTAKE_LIMITS): Promise<LoadedSchema> {
  const parsed = parseSchemaText(text, limits);
  if (!isJsonObject(parsed)) throw invalidSchema('content is not an OpenAPI document (expected an object at the top level)');
  const { sourceFormat, declaredVersion } = detectFormat(parsed);
  // Before the external-reference check: a URI an `$id` of the document carries is no external reference.
  if (sourceFormat === 'openapi-3.1') resolveSchemaIdentifiers(parsed);
  assertOnlyLocalRefs(parsed);

  const infoVersion = isJsonObject(parsed.info) && typeof parsed.info.version === 'string' ? parsed.info.version : undefined;
  const document = sourceFormat === 'swagger-2.0' ? await convertSwagger2(parsed) : (parsed as OpenApiDocument);
  const openapiVersion = sourceFormat === 'swagger-2.0' ? '3.0.0' : toThreePartVersion(declaredVersion);

  const endpointCount = listOperations(document).length;
  if (endpointCount > limits.maxOperations) {
    throw limitExceeded(
      `Invalid schema: ${endpointCount} operations, over the limit of ${limits.maxOperations} (maxOperations)`,
    );
  }
  const warnings = new IntakeWarnings();
  reviewSchemaKeywords(document, limits, warnings);
  assertLocalRefsResolve(document);
  acceptParametersWithoutSchema(document, warnings);
  assertValidOpenApiStructure(document, warnings);
  reportQuerySelectorPaths(document, warnings);
  return { document, openapiVersion, sourceFormat, endpointCount, infoVersion, warnings: warnings.toList(), warningCounts: warnings.counts() };
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
    const result = await converter.convertObj(keepHeaderCollectionFormats(structuredClone(swagger)), { patch: true, warnOnly: true });
    const document = result.openapi as OpenApiDocument;
    keepFormParameters(swagger, document);
    return document;
  } catch (error) {
    throw invalidSchema(`Swagger 2.0 document could not be converted: ${clip(errorMessage(error))}`, error);
  }
}

/** Header collectionFormats the conversion drops ("no longer supported for headers"), kept as `x-collectionFormat`. */
const HEADER_COLLECTION_FORMATS = new Set(['pipes', 'ssv']);

/**
 * Marks the header parameters and response headers of a Swagger 2.0 document whose arrays are
 * pipe- or space-separated (`X-Ids: 1|2`) with `x-collectionFormat`, which the conversion carries
 * over (it keeps tsv that way itself): read by their commas, their values would be one item.
 */
function keepHeaderCollectionFormats(swagger: JsonObject): JsonObject {
  const mark = (node: JsonValue | undefined, header: boolean) => {
    if (isJsonObject(node) && header && typeof node.collectionFormat === 'string' && HEADER_COLLECTION_FORMATS.has(node.collectionFormat)) {
      node['x-collectionFormat'] = node.collectionFormat;
    }
  };
  const markParameters = (list: JsonValue | undefined) => {
    for (const parameter of Array.isArray(list) ? list : isJsonObject(list) ? Object.values(list) : []) {
      mark(parameter, isJsonObject(parameter) && parameter.in === 'header');
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
    if (!isJsonObject(item)) continue;
    markParameters(item.parameters);
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isJsonObject(operation)) continue;
      markParameters(operation.parameters);
      markResponses(operation.responses);
    }
  }
  return swagger;
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

/**
 * Before anything is compiled: no `properties`/`patternProperties` object may exceed the member
 * limit; every `pattern` and `patternProperties` key gets its engine (src/shared/regex.ts), and a
 * pattern not run by RE2 is reported. A `pattern` that is not a string is left to the structure
 * check, which ignores it with a warning. Data (examples, defaults, extensions) holds no patterns
 * (document-walk.ts).
 */
function reviewSchemaKeywords(document: OpenApiDocument, limits: IntakeLimits, warnings: IntakeWarnings): void {
  walkDocument(document, undefined, (node, pointer, names) => {
    // A property, response or component that happens to be called `pattern` or `discriminator`: a name.
    if (names) return;
    for (const [key, child] of Object.entries(node)) {
      const childPointer = `${pointer}/${escapePointerToken(key)}`;
      if ((key === 'properties' || key === 'patternProperties') && isJsonObject(child)) {
        checkPropertyCount(Object.keys(child).length, childPointer, limits.maxSchemaObjectProperties);
      }
      if (key === 'discriminator' && isJsonObject(child)) ignoreDanglingMappings(document, child, childPointer, warnings);
      if (key === 'pattern' && typeof child === 'string') reviewPattern(child, childPointer, warnings);
      else if (key === 'patternProperties' && isJsonObject(child)) {
        for (const regex of Object.keys(child)) reviewPattern(regex, `${childPointer}/${escapePointerToken(regex)}`, warnings);
      }
    }
  });
}

/**
 * A discriminator `mapping` entry naming a schema the document does not have is ignored, with a
 * warning: kept, it would fail the compile of every operation whose schema reaches the
 * discriminator (DigitalOcean's descriptions have such entries). The tag is then read like any tag the mapping
 * does not list.
 */
function ignoreDanglingMappings(document: OpenApiDocument, discriminator: JsonObject, pointer: string, warnings: IntakeWarnings): void {
  const { mapping } = discriminator;
  if (!isJsonObject(mapping)) return;
  for (const [tag, target] of Object.entries(mapping)) {
    if (typeof target !== 'string') continue;
    const at = discriminatorMappingPointer(target);
    if (at !== undefined && resolveJsonPointer(document, at) !== undefined) continue;
    delete mapping[tag];
    warnings.add(
      IntakeWarningCode.KEYWORD_IGNORED,
      `${pointer}/mapping/${escapePointerToken(tag)}`,
      `discriminator mapping "${clip(tag, 200)}" names ${JSON.stringify(clip(target, 200))}, which is not in the document: ignored`,
    );
  }
}

function checkPropertyCount(count: number, pointer: string, max: number): void {
  if (count > max) {
    throw limitExceeded(
      `Invalid schema: ${count} properties in one object at ${clip(pointer, 200)}, over the limit of ${max} (maxSchemaObjectProperties)`,
    );
  }
}

function reviewPattern(pattern: string, pointer: string, warnings: IntakeWarnings): void {
  const plan = planPattern(pattern);
  if (plan.engine === 'ecma') {
    warnings.add(
      IntakeWarningCode.PATTERN_ECMA_ENGINE, pointer,
      `pattern "${clip(pattern, 200)}" is run by the JavaScript engine: RE2 cannot run it, and the ReDoS analyser proved its matching time linear`,
    );
  } else if (plan.engine === 'none') {
    warnings.add(IntakeWarningCode.PATTERN_NOT_ENFORCED, pointer, `pattern "${clip(pattern, 200)}" is not enforced: ${plan.reason}`);
  }
}

/**
 * OpenAPI requires `schema` or `content` on a parameter; real documents leave both out and mean
 * "any value". The engine document gets an empty schema there, so every engine reads it alike.
 */
function acceptParametersWithoutSchema(document: OpenApiDocument, warnings: IntakeWarnings): void {
  const visit = (list: unknown, pointer: string) => {
    if (!Array.isArray(list)) return;
    list.forEach((parameter, index) => {
      if (isJsonObject(parameter) && typeof parameter.$ref !== 'string') fillSchema(parameter, `${pointer}/${index}`);
    });
  };
  const fillSchema = (parameter: JsonObject, pointer: string) => {
    if (parameter.schema !== undefined || parameter.content !== undefined || typeof parameter.in !== 'string') return;
    parameter.schema = {};
    warnings.add(IntakeWarningCode.PARAMETER_WITHOUT_SCHEMA, pointer, `parameter "${String(parameter.name)}" in ${parameter.in} has neither schema nor content: any value is accepted`);
  };
  const components = isJsonObject(document.components) ? document.components : {};
  if (isJsonObject(components.parameters)) {
    for (const [name, parameter] of Object.entries(components.parameters)) {
      if (isJsonObject(parameter)) fillSchema(parameter, `/components/parameters/${escapePointerToken(name)}`);
    }
  }
  const paths = isJsonObject(document.paths) ? document.paths : {};
  for (const [template, item] of Object.entries(paths)) {
    if (!isJsonObject(item)) continue;
    const itemPointer = `/paths/${escapePointerToken(template)}`;
    visit(item.parameters, `${itemPointer}/parameters`);
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (isJsonObject(operation)) visit(operation.parameters, `${itemPointer}/${method}/parameters`);
    }
  }
}

/** `/#Action=DescribeStacks`: routed by its query selector (validation/route-table.ts), reported once per path. */
function reportQuerySelectorPaths(document: OpenApiDocument, warnings: IntakeWarnings): void {
  const paths = isJsonObject(document.paths) ? document.paths : {};
  for (const template of Object.keys(paths)) {
    const split = splitQuerySelector(template);
    if (split.selector.length === 0 || derefObject(document, paths[template]) === undefined) continue;
    const names = split.selector.map(({ name, value }) => (value === undefined ? name : `${name}=${value}`)).join(', ');
    warnings.add(
      IntakeWarningCode.QUERY_SELECTOR_PATH, `/paths/${escapePointerToken(template)}`,
      `path key "${clip(template, 200)}" is read as ${split.path} selected by the parameters ${names}`,
    );
  }
}

function clip(text: string, max = MAX_DETAIL_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
