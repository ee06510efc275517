/**
 * Everything one operation's checks need, read from the document once, on the operation's first
 * validation: parameters merged from path item and operation (by name and location), request
 * body media types, responses by status code, `NXX` range and `default`. Schemas are only located
 * here; they compile when first used (schema-slot.ts).
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../json';
import { childPointer, followRefs, locate, type LocatedObject } from './document-pointer';
import { isFormMediaType } from './form-body';
import { buildMediaTypeTable, essence, isJsonMediaType, type MediaTypeTable } from './media-type';
import { where, type ParameterLocation } from './messages';
import { parameterStyle, type ParameterStyle } from '../openapi/parameter-style';
import { createSlot, type SchemaSlot } from './schema-slot';
import type { Direction } from './schema-transform';
import { shapeOf, type ValueShape } from './value-shape';

export interface ParameterPlan {
  readonly name: string;
  readonly location: ParameterLocation;
  readonly required: boolean;
  /** form, simple, label, matrix, spaceDelimited, pipeDelimited, deepObject, or TAB_DELIMITED (Swagger 2.0's tsv). */
  readonly style: string;
  readonly explode: boolean;
  readonly allowEmptyValue: boolean;
  /** What the text becomes before schema validation. */
  readonly shape: ValueShape;
  /** The value is JSON text (a parameter described by `content` with a JSON media type). */
  readonly json: boolean;
  /** `parameter "id" in path`, `response header "X-Rate"`. */
  readonly place: string;
  readonly schema: SchemaSlot | undefined;
  /** Path: the router's key (`p0`); header: the lower-case name; query and cookie: the name. */
  readonly key: string;
}

/** One declared media type; an object even without schema, so a match is told apart from none. */
export interface MediaTypePlan {
  readonly schema: SchemaSlot | undefined;
  /** Form media types: what each field's text becomes before the schema sees it. */
  readonly fields: ValueShape | undefined;
  /** Form media types: the fields whose `encoding` declares a style (a converted Swagger 2.0 collectionFormat among them). */
  readonly fieldStyles?: ReadonlyMap<string, ParameterStyle>;
}

export interface BodyPlan {
  readonly required: boolean;
  readonly content: MediaTypeTable<MediaTypePlan>;
  /** The document lists media types (an empty `content` constrains nothing). */
  readonly declared: boolean;
}

export interface ResponsePlan {
  readonly headers: readonly ParameterPlan[];
  readonly body: BodyPlan | undefined;
}

export interface ResponsesPlan {
  readonly exact: ReadonlyMap<number, ResponsePlan>;
  /** Index 1–5 for `1XX`…`5XX`. */
  readonly ranges: ReadonlyArray<ResponsePlan | undefined>;
  readonly fallback: ResponsePlan | undefined;
}

export interface OperationPlan {
  readonly label: string;
  readonly pathParameters: readonly ParameterPlan[];
  readonly queryParameters: readonly ParameterPlan[];
  readonly headerParameters: readonly ParameterPlan[];
  readonly cookieParameters: readonly ParameterPlan[];
  readonly requestBody: BodyPlan | undefined;
  /** Undefined when the operation declares no `responses` at all: any response is then accepted. */
  readonly responses: ResponsesPlan | undefined;
}

const LOCATIONS = new Set<string>(['path', 'query', 'header', 'cookie']);
/** OpenAPI: header parameters with these names are ignored (the body and auth machinery own them). */
const IGNORED_HEADER_PARAMETERS = new Set(['accept', 'content-type', 'authorization']);

/** Where an operation sits in the document: what a plan is built from. */
export interface OperationSite {
  /** Upper case (`GET`). */
  readonly method: string;
  readonly template: string;
  /** Parameter names of the template, by position (the router names them `p0`, `p1`...). */
  readonly parameterNames: readonly string[];
  readonly pathItemPointer: string;
  readonly operationPointer: string;
  /** `GET /pets/{id}`. */
  readonly label: string;
}

export function buildOperationPlan(document: JsonValue, route: OperationSite): OperationPlan {
  const operation = locate(document, route.operationPointer);
  const pathItem = locate(document, route.pathItemPointer);
  const parameters = mergeParameters(document, pathItem, operation).flatMap((located) => {
    const plan = parameterPlan(document, located, route);
    return plan === undefined ? [] : [plan];
  });
  const byLocation = (location: ParameterLocation) => parameters.filter((parameter) => parameter.location === location);
  const requestBody = operation && followRefs(document, operation.node.requestBody, childPointer(operation.pointer, 'requestBody'));
  return {
    label: route.label,
    pathParameters: byLocation('path'),
    queryParameters: byLocation('query'),
    headerParameters: byLocation('header'),
    cookieParameters: byLocation('cookie'),
    requestBody: requestBody && bodyPlan(document, requestBody, 'request', 'request body', requestBody.node.required === true),
    responses: responsesPlan(document, operation),
  };
}

/** Operation parameters override path-item parameters with the same name and location. */
function mergeParameters(document: JsonValue, ...owners: Array<LocatedObject | undefined>): LocatedObject[] {
  const merged = new Map<string, LocatedObject>();
  for (const owner of owners) {
    const list = owner?.node.parameters;
    if (!owner || !Array.isArray(list)) continue;
    list.forEach((entry, index) => {
      const located = followRefs(document, entry, childPointer(childPointer(owner.pointer, 'parameters'), index));
      const { name, in: location } = located?.node ?? {};
      if (!located || typeof name !== 'string' || typeof location !== 'string') return;
      merged.set(`${location}:${location === 'header' ? name.toLowerCase() : name}`, located);
    });
  }
  return [...merged.values()];
}

function parameterPlan(document: JsonValue, { node, pointer }: LocatedObject, route: OperationSite): ParameterPlan | undefined {
  const name = node.name as string;
  const location = node.in as string;
  if (!LOCATIONS.has(location)) return undefined;
  if (location === 'header' && IGNORED_HEADER_PARAMETERS.has(name.toLowerCase())) return undefined;
  let key = name;
  if (location === 'path') {
    const position = route.parameterNames.indexOf(name);
    if (position < 0) return undefined; // declared but not in the template: nothing can carry it
    key = `p${position}`;
  } else if (location === 'header') key = name.toLowerCase();
  const place = where.parameter(name, location as ParameterLocation);
  return parameterPlanOf(
    { name, location: location as ParameterLocation, required: location === 'path' || node.required === true, allowEmptyValue: location === 'query' && node.allowEmptyValue === true, key },
    valueDescription(document, node, pointer, location as ParameterLocation, place, 'request'),
  );
}

type ValueDescription = Pick<ParameterPlan, 'style' | 'explode' | 'shape' | 'json' | 'place' | 'schema'>;

/**
 * One object literal for every parameter plan, so that all plans share one hidden class: the checks
 * read them for every call of every contract, and plans spread from another object got a class each
 * (property reads then went megamorphic, several times slower with many contracts).
 */
function parameterPlanOf(
  declared: Pick<ParameterPlan, 'name' | 'location' | 'required' | 'allowEmptyValue' | 'key'>,
  value: ValueDescription,
): ParameterPlan {
  return {
    name: declared.name,
    location: declared.location,
    required: declared.required,
    style: value.style,
    explode: value.explode,
    allowEmptyValue: declared.allowEmptyValue,
    shape: value.shape,
    json: value.json,
    place: value.place,
    schema: value.schema,
    key: declared.key,
  };
}

/** Style, shape and schema of a parameter or header, whether it has `schema` or `content`. */
function valueDescription(
  document: JsonValue,
  node: JsonObject,
  pointer: string,
  location: ParameterLocation,
  place: string,
  direction: Direction,
): ValueDescription {
  const { style, explode } = parameterStyle(node, location);
  if (node.schema === undefined && isJsonObject(node.content)) {
    const [mediaType, media] = Object.entries(node.content)[0] ?? [];
    if (mediaType !== undefined && isJsonObject(media) && media.schema !== undefined) {
      const json = isJsonMediaType(essence(mediaType));
      const schemaPointer = childPointer(childPointer(childPointer(pointer, 'content'), mediaType), 'schema');
      return {
        style, explode, place, json,
        shape: json ? { kind: 'any' } : shapeOf(document, media.schema),
        schema: createSlot(schemaPointer, direction, place),
      };
    }
  }
  return {
    style, explode, place, json: false,
    shape: shapeOf(document, node.schema),
    schema: node.schema === undefined ? undefined : createSlot(childPointer(pointer, 'schema'), direction, place),
  };
}

function bodyPlan(document: JsonValue, { node, pointer }: LocatedObject, direction: Direction, subject: string, required: boolean): BodyPlan {
  const content = isJsonObject(node.content) ? node.content : {};
  const contentPointer = childPointer(pointer, 'content');
  const entries = Object.keys(content).map((key): [string, MediaTypePlan] => {
    const media = content[key];
    const schema = isJsonObject(media) && media.schema !== undefined
      ? createSlot(childPointer(childPointer(contentPointer, key), 'schema'), direction, subject)
      : undefined;
    const form = isFormMediaType(essence(key)) && isJsonObject(media);
    return [key, { schema, fields: form ? formFields(document, media.schema) : undefined, fieldStyles: form ? fieldStyles(media) : undefined }];
  });
  return { required, content: buildMediaTypeTable(entries), declared: entries.length > 0 };
}

/**
 * What a form body's fields become. Fields are named: only a schema of an object (or of no
 * declared type) describes them. A form schema of another type (`type: string, format: binary`,
 * the body as one file) leaves the body to the presence and content-type checks, like other
 * bodies that are not JSON.
 */
function formFields(document: JsonValue, schema: JsonValue | undefined): ValueShape | undefined {
  const shape = shapeOf(document, schema);
  return shape.kind === 'object' || shape.kind === 'any' ? shape : undefined;
}

/** Each field's style and explode from the media type's `encoding`, with a query parameter's defaults (form, exploded). */
function fieldStyles(media: JsonObject): ReadonlyMap<string, ParameterStyle> | undefined {
  if (!isJsonObject(media.encoding)) return undefined;
  const styles = new Map<string, ParameterStyle>();
  for (const [name, encoding] of Object.entries(media.encoding)) {
    if (isJsonObject(encoding)) styles.set(name, parameterStyle(encoding, 'query'));
  }
  return styles;
}

function responsesPlan(document: JsonValue, operation: LocatedObject | undefined): ResponsesPlan | undefined {
  const responses = operation?.node.responses;
  if (!operation || !isJsonObject(responses)) return undefined;
  const exact = new Map<number, ResponsePlan>();
  const ranges: Array<ResponsePlan | undefined> = [];
  let fallback: ResponsePlan | undefined;
  const responsesPointer = childPointer(operation.pointer, 'responses');
  for (const code of Object.keys(responses)) {
    const located = followRefs(document, responses[code], childPointer(responsesPointer, code));
    if (located === undefined) continue;
    if (code === 'default') fallback = responsePlan(document, located, 'default');
    else if (/^[1-5]xx$/i.test(code)) ranges[Number(code[0])] = responsePlan(document, located, code.toUpperCase());
    else if (/^[1-5]\d\d$/.test(code)) exact.set(Number(code), responsePlan(document, located, code));
  }
  return { exact, ranges, fallback };
}

function responsePlan(document: JsonValue, response: LocatedObject, code: string): ResponsePlan {
  const headers: ParameterPlan[] = [];
  const declared = response.node.headers;
  if (isJsonObject(declared)) {
    const headersPointer = childPointer(response.pointer, 'headers');
    for (const name of Object.keys(declared)) {
      if (name.toLowerCase() === 'content-type') continue; // OpenAPI: described by `content`, not here
      const header = followRefs(document, declared[name], childPointer(headersPointer, name));
      if (header === undefined) continue;
      const place = where.responseHeader(name);
      headers.push(parameterPlanOf(
        { name, location: 'header', required: header.node.required === true, allowEmptyValue: false, key: name.toLowerCase() },
        valueDescription(document, header.node, header.pointer, 'header', place, 'response'),
      ));
    }
  }
  const body = response.node.content === undefined ? undefined : bodyPlan(document, response, 'response', `response ${code} body`, false);
  return { headers, body };
}
