/**
 * Form bodies (`application/x-www-form-urlencoded`, `multipart/form-data`) → the object their
 * schema describes: fields by name, each text coerced to the type its property declares (repeated
 * fields and arrays become arrays, objects are read as JSON), then validated like a JSON body.
 * A file part is its text: OpenAPI describes files as `type: string` (`format: binary`).
 */
import { setOwn } from '../json';
import { LIMITS } from '../limits';
import { FORM_MEDIA_TYPES } from '../openapi/document';
import { arraySeparator, type ParameterStyle } from '../openapi/parameter-style';
import { outsideDoubleRange } from './double-range';
import { JsonRefusal, parseGuardedJson, type BodyLimits } from './json-body';
import { quote } from './messages';
import { decodeComponent } from './query-string';
import { NOT_COERCIBLE, OUTSIDE_DOUBLE_RANGE, coerceAlternatives, coerceScalar, type ValueShape } from './value-shape';

/**
 * Parts read from one multipart body, and fields from one urlencoded body (LIMITS.validationMaxFormParts);
 * a body with more is refused rather than read without end.
 */
const MAX_FORM_PARTS = LIMITS.validationMaxFormParts;

export type FormFields = Map<string, string[]>;

export function isFormMediaType(mediaType: string): boolean {
  return (FORM_MEDIA_TYPES as readonly string[]).includes(mediaType);
}

/** The fields of a form body, or a reason it cannot be read. */
export function parseFormBody(mediaType: string, contentType: string, body: string): FormFields | { problem: string } {
  if (mediaType === 'application/x-www-form-urlencoded') return parseUrlEncoded(body);
  const boundary = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (boundary === null) return { problem: 'the content type names no boundary' };
  return parseMultipart(body, boundary[1] ?? boundary[2]!);
}

/** Fields counted while the body is split, so a body of a million fields is refused after reading 1,001. */
function parseUrlEncoded(body: string): FormFields | { problem: string } {
  const fields: FormFields = new Map();
  let count = 0;
  for (let start = 0; start <= body.length;) {
    let end = body.indexOf('&', start);
    if (end < 0) end = body.length;
    const pair = body.slice(start, end);
    start = end + 1;
    if (pair === '') continue;
    if (++count > MAX_FORM_PARTS) return { problem: `more than ${MAX_FORM_PARTS} fields (maxFormParts)` };
    const equals = pair.indexOf('=');
    const name = decodeComponent(equals < 0 ? pair : pair.slice(0, equals));
    addField(fields, name, equals < 0 ? '' : decodeComponent(pair.slice(equals + 1)));
  }
  return fields;
}

/**
 * Parts counted while the body is split: a body of two million parts is refused after reading 1,001.
 * A delimiter starts a line (RFC 2046: the line break before it belongs to it), so `--boundary`
 * inside a part's content is content; bare LF line breaks are taken too.
 */
function parseMultipart(body: string, boundary: string): FormFields | { problem: string } {
  // The preamble, the parts and the closing `--`: one section more than that means parts over the limit.
  const maxSections = MAX_FORM_PARTS + 3;
  // Split on the text, not an expression of it: the boundary is the caller's, and one of 100,000
  // characters made an expression V8 refuses to compile (the call failed as INTERNAL).
  // The first delimiter may open the body, with no line break before it.
  const sections = `\r\n${body}`.split(`\n--${boundary}`, maxSections);
  if (sections.length === maxSections) return { problem: `more than ${MAX_FORM_PARTS} parts (maxFormParts)` };
  if (sections.length < 3 || !sections[sections.length - 1]!.startsWith('--')) {
    return { problem: `the body is not delimited by the boundary ${quote(boundary, LIMITS.validationMaxQuotedValueChars)}` };
  }
  // A delimiter's line break may be CRLF: its CR ends the section before it.
  for (let i = 0; i < sections.length - 1; i++) {
    if (sections[i]!.endsWith('\r')) sections[i] = sections[i]!.slice(0, -1);
  }
  const fields: FormFields = new Map();
  for (const section of sections.slice(1, -1)) {
    const part = section.replace(/^[ \t]*\r?\n/, '');
    const split = /\r?\n\r?\n/.exec(part);
    const head = split === null ? part : part.slice(0, split.index);
    const content = split === null ? '' : part.slice(split.index + split[0].length);
    const disposition = /^content-disposition:\s*form-data\s*;(.*)$/im.exec(head);
    const name = disposition && /\bname="([^"]*)"/i.exec(disposition[1]!);
    if (!name) return { problem: 'a part has no Content-Disposition form-data name' };
    addField(fields, name[1]!, content);
  }
  return fields;
}

function addField(fields: FormFields, name: string, value: string): void {
  const list = fields.get(name);
  if (list === undefined) fields.set(name, [value]);
  else list.push(value);
}

/** A field whose text cannot become the declared type. */
export interface FieldProblem {
  name: string;
  value: string;
  /** The type the text is not. */
  type: string;
  /** JSON text of the type, but nested deeper than the body guard allows (json-body.ts). */
  tooDeep?: true;
}

/** The body guards fields are read behind, and where a field is, for the failure of a number no double holds. */
export interface FieldGuard {
  limits: BodyLimits;
  place(name: string): string;
}

/**
 * The object the fields make under an object shape, and the fields whose text has the wrong type.
 * An array field whose `styles` entry is not exploded (`ids=1,2,3`, Swagger 2.0's csv) is split on
 * its style's separator; otherwise its items are the field's repetitions.
 */
export function formObject(
  fields: FormFields,
  shape: ValueShape,
  guard: FieldGuard,
  styles?: ReadonlyMap<string, ParameterStyle>,
): { value: Record<string, unknown>; problems: FieldProblem[] } {
  const value: Record<string, unknown> = {};
  const problems: FieldProblem[] = [];
  const coerceField = (text: string, fieldShape: ValueShape, name: string) => coerceFieldText(text, fieldShape, name, guard, problems);
  const { objects: deepObjects, memberNames } = deepObjectFields(fields, styles);
  for (const [name, texts] of fields) {
    if (deepObjects.has(name) || memberNames.has(name)) continue;
    const fieldShape = memberShape(shape, name);
    const style = styles?.get(name);
    const items = style !== undefined && !style.explode ? texts.flatMap((text) => (text === '' ? [] : text.split(arraySeparator(style.style)))) : texts;
    // A repeated field is an array whatever its schema says (docs/real-world-documents.md), so a
    // field of one value sent twice breaks its schema instead of passing on its first value.
    const coerced = fieldShape.kind === 'array'
      ? items.map((text) => coerceField(text, fieldShape.items, name))
      : texts.length > 1
        ? texts.map((text) => coerceField(text, fieldShape, name))
        : coerceField(texts[0]!, fieldShape, name);
    setOwn(value, name, coerced);
  }
  for (const [name, members] of deepObjects) setOwn(value, name, deepObject(members, memberShape(shape, name), name, coerceField));
  return { value, problems };
}

/** What a field (or a deepObject field's member) of an object shape becomes: its property's shape, else the shape of extra properties. */
function memberShape(shape: ValueShape, name: string): ValueShape {
  return shape.kind === 'object' ? (shape.properties.get(name) ?? shape.additional) : { kind: 'any' };
}

/** The fields `name[property]` of each field whose style is deepObject, by field name, and the names they were sent under. */
function deepObjectFields(
  fields: FormFields,
  styles: ReadonlyMap<string, ParameterStyle> | undefined,
): { objects: Map<string, Map<string, string>>; memberNames: Set<string> } {
  const objects = new Map<string, Map<string, string>>();
  const memberNames = new Set<string>();
  for (const [name, style] of styles ?? []) {
    if (style.style !== 'deepObject') continue;
    const prefix = `${name}[`;
    for (const [field, texts] of fields) {
      if (!field.startsWith(prefix) || !field.endsWith(']')) continue;
      let members = objects.get(name);
      if (members === undefined) objects.set(name, (members = new Map()));
      members.set(field.slice(prefix.length, -1), texts[0]!);
      memberNames.add(field);
    }
  }
  return { objects, memberNames };
}

/** A deepObject field's members (`addr[city]=X`) as the object its schema describes, each text coerced to its property's type. */
function deepObject(
  members: ReadonlyMap<string, string>,
  shape: ValueShape,
  name: string,
  coerceField: (text: string, shape: ValueShape, name: string) => unknown,
): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [property, text] of members) setOwn(object, property, coerceField(text, memberShape(shape, property), `${name}[${property}]`));
  return object;
}

/**
 * A field's text as its shape's type: objects and arrays read as JSON behind the body guards; the
 * text itself, with a problem noted, when it is not of the type. A number no double holds fails the
 * call (double-range.ts).
 */
function coerceFieldText(text: string, shape: ValueShape, name: string, guard: FieldGuard, problems: FieldProblem[]): unknown {
  let refusal: JsonRefusal | undefined;
  const readJson = (json: string): unknown => {
    const value = parseGuardedJson(json, guard.limits);
    if (!(value instanceof JsonRefusal)) return value;
    if (value.reason === 'outside-double-range') throw outsideDoubleRange(guard.place(name), value.detail);
    refusal = value;
    return undefined;
  };
  const structured = shape.kind === 'object' || shape.kind === 'array';
  const value = structured
    ? readJson(text)
    : shape.alternatives !== undefined ? coerceAlternatives(text, shape.alternatives, readJson) : coerceScalar(text, shape.kind);
  if (value === OUTSIDE_DOUBLE_RANGE) throw outsideDoubleRange(guard.place(name), text);
  if (structured && refusal !== undefined) {
    problems.push({ name, value: text, type: `${shape.kind} (as JSON)`, ...(refusal.reason === 'too-deep' ? { tooDeep: true as const } : {}) });
  } else if (value === NOT_COERCIBLE) {
    problems.push({ name, value: text, type: shape.kind });
  } else {
    return value;
  }
  return text;
}
