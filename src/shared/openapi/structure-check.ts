/**
 * Structural validation of an OpenAPI document against the official JSON Schemas of its version,
 * with `$ref`s left in place. Validating a dereferenced document (what swagger-parser does) walks
 * every shared component once per path that reaches it: exponential under `$ref` fan-out (a
 * component referenced twice per level, 24 levels deep, took minutes). This check is linear in
 * the size of the text.
 *
 * Leniency (DESIGN "Semantics we chose"): deviations whose meaning is clear are repaired in the
 * engine document and reported (a malformed schema keyword is ignored, an unknown field where only
 * annotations live is ignored, an operation without `responses` accepts any response). Everything
 * else that breaks the official schema (an operation holding `200:` instead of `responses`, a
 * parameter without `in`) still refuses the document.
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import { invalidSchema } from '../errors';
import { escapePointerToken, isJsonObject, unescapePointerToken, type JsonObject, type JsonValue } from '../json';
import type { OpenApiDocument } from './document';
import { walkDocument } from './document-walk';
import { IntakeWarningCode, MAX_QUOTED_CHARS, type IntakeWarnings } from './intake-warnings';
import { LIMITS } from '../limits';
import { clip } from '../text';
import { pointerToRef, refToPointer, resolveJsonPointer, resolvePointer } from './refs';

const MAX_REPORTED_ERRORS = 10;
/** Validate → repair rounds; a repair can uncover an error that an enclosing `oneOf` hid. */
const MAX_REPAIR_ROUNDS = 4;

/**
 * The official schemas' validators, precompiled (structure-schemas.ts). Each is loaded on its first
 * use, by the thread that checks a document: the main thread never does, and 420 KB of code would
 * cost it about 20 ms at start.
 */
let validate30: ValidateFunction | undefined;
let validate31: ValidateFunction | undefined;
const loadValidate30 = (): ValidateFunction => (require('./generated/openapi-3.0-structure') as { default: ValidateFunction }).default;
const loadValidate31 = (): ValidateFunction => (require('./generated/openapi-3.1-structure') as { default: ValidateFunction }).default;

/**
 * Checks the document against the official schema, repairing in place what leniency allows (each
 * repair reported in `warnings`); throws `Invalid schema:` for what remains.
 */
export function assertValidOpenApiStructure(document: OpenApiDocument, warnings?: IntakeWarnings): void {
  const validate = document.openapi.startsWith('3.1') ? (validate31 ??= loadValidate31()) : (validate30 ??= loadValidate30());
  const missingResponses = new Set<string>();
  for (let round = 0; ; round++) {
    if (validate(document)) break;
    const errors: ErrorObject[] = [];
    for (const error of validate.errors ?? []) {
      if (isMissingResponses(error)) missingResponses.add(error.instancePath);
      else errors.push(error);
    }
    if (errors.length === 0) break;
    const repaired = warnings !== undefined && round < MAX_REPAIR_ROUNDS && repairAll(document, errors, warnings);
    if (!repaired) throw invalidSchema(`not a valid OpenAPI document: ${describeErrors(errors)}`);
  }
  for (const pointer of [...missingResponses].sort()) {
    warnings?.add(IntakeWarningCode.RESPONSES_MISSING, pointer, 'operation declares no responses: any response is accepted');
  }
}

/**
 * Every `$ref` must point at something in the document (all are local: see refs.ts), and a chain
 * of references (a `$ref` to an object that is itself a `$ref`...) must end at an object within
 * LIMITS.maxRefChainHops. Every engine reads a cyclic or overlong chain as pointing nowhere
 * (refs.ts derefObject), so such a document would register and then answer wrongly ("status 200
 * is not defined", an empty fixture): it is refused like a dangling reference. A `$ref` inside
 * data (an example, a default, an `x-…` extension) is text, not a reference (document-walk.ts).
 */
export function assertLocalRefsResolve(document: OpenApiDocument): void {
  const refs: Array<[ref: string, at: string]> = [];
  walkDocument(document, undefined, (node, pointer) => {
    if (typeof node.$ref === 'string') refs.push([node.$ref, pointer || '/']);
  });
  // Pointer of a target → $ref hops from it to the object the chain ends at; linear overall.
  const chainEnds = new Map<string, number>();
  // From the end of the document, where components usually are: a chain is then measured from the
  // object it ends at, so a reference from `paths` into it is named with its whole length.
  for (let i = refs.length - 1; i >= 0; i--) checkRefChain(document, refs[i]![0], refs[i]![1], chainEnds);
}

function checkRefChain(document: OpenApiDocument, ref: string, at: string, chainEnds: Map<string, number>): void {
  const chain: string[] = [];
  let next = ref;
  let hops: number | undefined;
  for (;;) {
    const target = refToPointer(next);
    const value = target === undefined ? undefined : resolveJsonPointer(document, target);
    if (target === undefined || value === undefined) {
      const from = chain.length === 0 ? '' : ` (reached through ${describeChain(ref, chain)})`;
      throw invalidSchema(`$ref "${clip(next, MAX_QUOTED_CHARS)}" at ${chain.length === 0 ? at : clip(chain[chain.length - 1]!, MAX_QUOTED_CHARS)} does not resolve to anything in the document${from}`);
    }
    if (chain.includes(target)) {
      throw invalidSchema(`$ref "${clip(ref, MAX_QUOTED_CHARS)}" at ${at} is circular: ${describeChain(ref, [...chain, target])} never reaches an object`);
    }
    chain.push(target);
    if (chain.length > LIMITS.maxRefChainHops) break;
    const known = chainEnds.get(target);
    if (known !== undefined) {
      hops = known;
      break;
    }
    if (!isJsonObject(value) || typeof value.$ref !== 'string') {
      hops = 0;
      break;
    }
    next = value.$ref;
  }
  const total = hops === undefined ? undefined : hops + chain.length;
  if (hops === undefined || total! > LIMITS.maxRefChainHops) {
    const count = total === undefined ? `more than ${LIMITS.maxRefChainHops}` : String(total);
    throw invalidSchema(`$ref "${clip(ref, MAX_QUOTED_CHARS)}" at ${at} starts a chain of ${count} references to references, over the limit of ${LIMITS.maxRefChainHops} (maxRefChainHops)`);
  }
  // chain[i] is reached after i + 1 hops, so the object there is `hops + (chain.length - 1 - i)` hops from the end.
  for (let i = chain.length - 1; i >= 0; i--) chainEnds.set(chain[i]!, hops + (chain.length - 1 - i));
}

/** `#/a → #/b → #/a`, shortened in the middle when long. */
function describeChain(ref: string, pointers: readonly string[]): string {
  const steps = [ref, ...pointers.slice(1).map((pointer) => `#${pointer}`)];
  const shown = steps.length > 8 ? [...steps.slice(0, 4), '…', ...steps.slice(-3)] : steps;
  return shown.map((step) => clip(step, 120)).join(' → ');
}

/**
 * An operation without `responses` is accepted: real documents have them, tools read them fine,
 * and the meaning is clear (nothing is promised about the response).
 */
function isMissingResponses(error: ErrorObject): boolean {
  return error.keyword === 'required' && (error.params as { missingProperty?: string }).missingProperty === 'responses';
}

interface Repair {
  code: IntakeWarningCode;
  /** Pointer of the member removed. */
  pointer: string;
  message: string;
}

/** Applies every repair the errors allow; false when none does (the errors then stand). */
function repairAll(document: OpenApiDocument, errors: readonly ErrorObject[], warnings: IntakeWarnings): boolean {
  const repairs = new Map<string, Repair>();
  for (const error of errors) {
    const repair = repairFor(document, error);
    if (repair !== undefined && !repairs.has(repair.pointer)) repairs.set(repair.pointer, repair);
  }
  let applied = 0;
  for (const repair of repairs.values()) {
    if (!removeMember(document, repair.pointer)) continue;
    warnings.add(repair.code, repair.pointer, repair.message);
    applied++;
  }
  return applied > 0;
}

/**
 * AJV reports the schema path relative to the official definition it is in (`#/properties/pattern/type`),
 * so what kind of object failed is read from where it sits in the document (see objectKind).
 */
function repairFor(document: OpenApiDocument, error: ErrorObject): Repair | undefined {
  const { schemaPath, instancePath } = error;
  const tokens = instancePath === '' ? [] : instancePath.slice(1).split('/').map(unescapePointerToken);
  const parentKind = objectKind(tokens.slice(0, -1));
  const member = tokens[tokens.length - 1];
  const memberRule = /^#(?:\/definitions\/[^/]+)?\/properties\/([^/]+)\//.exec(schemaPath)?.[1];
  if (member !== undefined && memberRule === member && parentKind !== 'other') {
    // A malformed schema keyword (`pattern: 0`, `required: []`) or annotation (`tags: [{}]`).
    const what = parentKind === 'schema' ? `schema keyword "${member}"` : `field "${member}"`;
    return {
      code: parentKind === 'schema' ? IntakeWarningCode.KEYWORD_IGNORED : IntakeWarningCode.FIELD_IGNORED,
      pointer: instancePath,
      message: `${what} ${describeValue(document, instancePath)} is not valid (${error.message ?? 'malformed'}): ignored`,
    };
  }
  if (error.keyword === 'additionalProperties' && /^#(?:\/definitions\/[^/]+)?\/additionalProperties$/.test(schemaPath)) {
    const kind = objectKind(tokens);
    if (kind === 'other' && tokens.length > 0) return undefined;
    const field = (error.params as { additionalProperty: string }).additionalProperty;
    const where = tokens.length === 0 ? 'the document' : kind === 'schema' ? 'a schema object' : 'this object';
    return {
      code: IntakeWarningCode.FIELD_IGNORED,
      pointer: `${instancePath}/${escapePointerToken(field)}`,
      message: `"${field}" is not a field of ${where} in OpenAPI: ignored`,
    };
  }
  return undefined;
}

/** Where a schema starts, after these members of an OpenAPI object. */
const SCHEMA_ROOT_KEYS = new Set(['schema']);
/** Schema keywords holding one schema, and those holding a list or a name map of schemas. */
const SUBSCHEMA_KEYS = new Set(['items', 'not', 'additionalProperties']);
const SUBSCHEMA_LIST_OR_MAP_KEYS = new Set(['allOf', 'oneOf', 'anyOf', 'properties']);
/** Objects that only annotate (info, contact, license, external docs, tags, servers, xml). */
type ObjectKind = 'schema' | 'annotation' | 'other';

/** What kind of OpenAPI object the tokens of a pointer lead to. */
function objectKind(tokens: readonly string[]): ObjectKind {
  const [first, second, third] = tokens;
  if (first === 'info' && (tokens.length === 1 || (tokens.length === 2 && (second === 'contact' || second === 'license')))) return 'annotation';
  if ((first === 'tags' || first === 'servers') && tokens.length === 2) return 'annotation';
  if (tokens[tokens.length - 1] === 'externalDocs') return 'annotation';
  // A schema starts at components/schemas/<name> or at any `schema` member; keywords then nest schemas.
  let start = -1;
  if (first === 'components' && second === 'schemas' && third !== undefined) start = 3;
  for (let i = tokens.length - 1; i >= 0 && start < 0; i--) if (SCHEMA_ROOT_KEYS.has(tokens[i]!)) start = i + 1;
  if (start < 0) return 'other';
  let i = start;
  while (i < tokens.length) {
    const token = tokens[i]!;
    if (SUBSCHEMA_KEYS.has(token)) i += 1;
    else if (SUBSCHEMA_LIST_OR_MAP_KEYS.has(token) && i + 1 < tokens.length) i += 2;
    else if (token === 'xml' && i === tokens.length - 1) return 'annotation';
    else if (token === 'externalDocs' && i === tokens.length - 1) return 'annotation';
    else return 'other';
  }
  return 'schema';
}

function removeMember(document: OpenApiDocument, pointer: string): boolean {
  const slash = pointer.lastIndexOf('/');
  const parent = resolvePointer(document, pointerToRef(pointer.slice(0, slash)));
  const key = unescapePointerToken(pointer.slice(slash + 1));
  if (!isJsonObject(parent) || !Object.hasOwn(parent, key)) return false;
  delete (parent as JsonObject)[key];
  return true;
}

function describeValue(document: OpenApiDocument, pointer: string): string {
  const value = resolvePointer(document, pointerToRef(pointer)) as JsonValue | undefined;
  const text = JSON.stringify(value) ?? 'undefined';
  return `(${clip(text, 60)})`;
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

