/**
 * Schema intake (spec "Schema loading rules"): text → a checked OpenAPI 3.x document with its
 * `$ref`s kept. Swagger 2.0 is converted to OpenAPI 3.0.0. Nothing outside the text is ever read:
 * external references are refused before any library sees the document.
 */
import { LIMITS } from '../limits';
import { clip } from '../text';
import { invalidSchema, limitExceeded } from '../errors';
import { escapePointerToken, isJsonObject, type JsonObject } from '../json';
import { planPattern } from '../regex';
import { HTTP_METHODS, isSwagger2, swaggerVersion, type OpenApiDocument, type SourceFormat } from './document';
import { walkDocument } from './document-walk';
import { IntakeWarningCode, IntakeWarnings, MAX_QUOTED_CHARS, type IntakeWarning } from './intake-warnings';
import { forEachPathItem, listOperations } from './operations';
import { parseSchemaText, type ParseLimits } from './parse-text';
import { mergePathItemRefSiblings } from './path-item-refs';
import { splitQuerySelector } from './query-selector-paths';
import { assertOnlyLocalRefs, derefObject, discriminatorMappingPointer, resolveJsonPointer } from './refs';
import { assertLocalRefsResolve, assertValidOpenApiStructure } from './structure-check';
import { resolveSchemaIdentifiers } from './schema-resources';
import { convertSwagger2 } from './swagger2-conversion';

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
  maxYamlExpandedChars: LIMITS.maxYamlExpandedChars,
  maxOperations: LIMITS.maxOperations,
  maxSchemaObjectProperties: LIMITS.maxSchemaObjectProperties,
};


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

  const warnings = new IntakeWarnings();
  mergePathItemRefSiblings(document, warnings);
  const endpointCount = listOperations(document).length;
  if (endpointCount > limits.maxOperations) {
    throw limitExceeded(
      `Invalid schema: ${endpointCount} operations, over the limit of ${limits.maxOperations} (maxOperations)`,
    );
  }
  reviewSchemaKeywords(document, limits, warnings);
  assertLocalRefsResolve(document);
  acceptParametersWithoutSchema(document, warnings);
  reportDuplicateParameters(document, warnings);
  assertValidOpenApiStructure(document, warnings);
  reportQuerySelectorPaths(document, warnings);
  return { document, openapiVersion, sourceFormat, endpointCount, infoVersion, warnings: warnings.toList(), warningCounts: warnings.counts() };
}

/**
 * The version fields must be strings, but YAML reads `swagger: 2.0` unquoted as the number 2: that
 * one is unambiguous and read as "2.0" (swaggerVersion). `openapi: 3.0` is the number 3 and
 * `openapi: 3.10` the number 3.1, so an `openapi` number is refused with a message that says to quote it.
 */
function detectFormat(value: JsonObject): { sourceFormat: SourceFormat; declaredVersion: string } {
  const swagger = swaggerVersion(value);
  const openapi = value.openapi;
  if (swagger !== undefined) {
    if (isSwagger2(value)) return { sourceFormat: 'swagger-2.0', declaredVersion: swagger };
    throw invalidSchema(`unsupported swagger version "${swagger}" (supported: 2.0, 3.0.x, 3.1.x)`);
  }
  if (typeof openapi === 'number') {
    throw invalidSchema(
      `"openapi" is the number ${openapi}, not a version string: unquoted in YAML, openapi: 3.0 reads as 3 and 3.10 as 3.1; write the version in quotes (openapi: "3.0.3")`,
    );
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
      `discriminator mapping "${clip(tag, MAX_QUOTED_CHARS)}" names ${JSON.stringify(clip(target, MAX_QUOTED_CHARS))}, which is not in the document: ignored`,
    );
  }
}

function checkPropertyCount(count: number, pointer: string, max: number): void {
  if (count > max) {
    throw limitExceeded(
      `Invalid schema: ${count} properties in one object at ${clip(pointer, MAX_QUOTED_CHARS)}, over the limit of ${max} (maxSchemaObjectProperties)`,
    );
  }
}

function reviewPattern(pattern: string, pointer: string, warnings: IntakeWarnings): void {
  const plan = planPattern(pattern);
  if (plan.engine === 'ecma') {
    warnings.add(
      IntakeWarningCode.PATTERN_ECMA_ENGINE, pointer,
      `pattern "${clip(pattern, MAX_QUOTED_CHARS)}" is run by the JavaScript engine: RE2 cannot run it, and the ReDoS analyser proved its matching time linear`,
    );
  } else if (plan.engine === 'none') {
    warnings.add(IntakeWarningCode.PATTERN_NOT_ENFORCED, pointer, `pattern "${clip(pattern, MAX_QUOTED_CHARS)}" is not enforced: ${plan.reason}`);
  }
}

/**
 * OpenAPI requires `schema` or `content` on a parameter; real documents leave both out and mean
 * "any value". The engine document gets an empty schema there, so every engine reads it alike:
 * wherever parameters are (components, and every path item: paths, webhooks, components and
 * callbacks).
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
  forEachPathItem(document, (item, itemPointer) => {
    visit(item.parameters, `${itemPointer}/parameters`);
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (isJsonObject(operation)) visit(operation.parameters, `${itemPointer}/${method}/parameters`);
    }
  });
}

/**
 * OpenAPI: a parameters list must not name a parameter twice (name and location; a header's name
 * in any case). Validation reads the last one (validation/operation-plan.ts), so the first one's
 * rules go unchecked: said at registration.
 */
function reportDuplicateParameters(document: OpenApiDocument, warnings: IntakeWarnings): void {
  // A path item merged with the one its `$ref` names shares that one's list: reported once.
  const checked = new WeakSet<unknown[]>();
  const check = (list: unknown, pointer: string) => {
    if (!Array.isArray(list) || checked.has(list)) return;
    checked.add(list);
    const seen = new Set<string>();
    list.forEach((entry, index) => {
      const parameter = derefObject(document, entry);
      const { name, in: location } = parameter ?? {};
      if (typeof name !== 'string' || typeof location !== 'string') return;
      const key = `${location}:${location === 'header' ? name.toLowerCase() : name}`;
      if (!seen.has(key)) {
        seen.add(key);
        return;
      }
      warnings.add(
        IntakeWarningCode.DUPLICATE_PARAMETER,
        `${pointer}/${index}`,
        `parameter "${clip(name, MAX_QUOTED_CHARS)}" in ${clip(location, MAX_QUOTED_CHARS)} is listed twice in one parameters list: the last one is used`,
      );
    });
  };
  forEachPathItem(document, (item, itemPointer) => {
    check(item.parameters, `${itemPointer}/parameters`);
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (isJsonObject(operation)) check(operation.parameters, `${itemPointer}/${method}/parameters`);
    }
  });
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
      `path key "${clip(template, MAX_QUOTED_CHARS)}" is read as ${split.path} selected by the parameters ${names}`,
    );
  }
}

