/**
 * Schema text → plain JSON value, behind the intake guards: size, UTF-8, YAML alias bombs and
 * nesting depth. JSON text takes the fast path (JSON.parse); anything else is read as YAML 1.2,
 * with YAML 1.1's merge keys (`<<: *base`), which API descriptions use to share fragments and
 * which other readers (js-yaml, PyYAML) merge. Merged aliases count against `maxYamlAliases` like
 * any alias, and a document with aliases is held to `maxYamlExpandedValues` once expanded.
 */
import YAML from 'yaml';
import { LIMITS, formatBytes } from '../limits';
import { ErrorCode, SvcError, invalidSchema, limitExceeded } from '../errors';
import { nestingDepthExceeds } from '../json';

export interface ParseLimits {
  maxSchemaBytes: number;
  maxSchemaDepth: number;
  maxYamlAliases: number;
  maxYamlExpandedValues: number;
}

const DEFAULT_PARSE_LIMITS: ParseLimits = {
  maxSchemaBytes: LIMITS.maxSchemaBytes,
  maxSchemaDepth: LIMITS.maxSchemaDepth,
  maxYamlAliases: LIMITS.maxYamlAliases,
  maxYamlExpandedValues: LIMITS.maxYamlExpandedValues,
};

/** Bytes must be UTF-8; `fatal` refuses malformed sequences instead of replacing them with U+FFFD. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** `merge`: `<<` is a merge key, not a key named "<<" (the YAML 1.2 core schema has no merge keys). */
const YAML_OPTIONS = Object.freeze({ merge: true });

/**
 * The schema as text. Validity is decided on bytes where there are bytes (a file): U+FFFD is a
 * legal character, so its presence in decoded text proves nothing about the bytes it came from.
 */
export function decodeSchemaBytes(content: string | Uint8Array): string {
  if (typeof content === 'string') return content;
  try {
    return STRICT_UTF8.decode(content);
  } catch {
    throw invalidSchema('content is not valid UTF-8 text');
  }
}

export function parseSchemaText(content: string | Uint8Array, limits: ParseLimits = DEFAULT_PARSE_LIMITS): unknown {
  const bytes = typeof content === 'string' ? Buffer.byteLength(content, 'utf8') : content.byteLength;
  if (bytes > limits.maxSchemaBytes) {
    throw limitExceeded(
      `Invalid schema: content is ${formatBytes(bytes)}, over the limit of ${formatBytes(limits.maxSchemaBytes)} (maxSchemaBytes)`,
    );
  }
  const text = decodeSchemaBytes(content);
  if (text.trim() === '') throw invalidSchema('content is empty');

  const value = looksLikeJson(text) ? parseJson(text, limits) : parseYaml(text, limits);
  if (nestingDepthExceeds(value, limits.maxSchemaDepth)) {
    throw limitExceeded(
      `Invalid schema: document nesting exceeds the limit of ${limits.maxSchemaDepth} levels (maxSchemaDepth)`,
    );
  }
  return value;
}

function looksLikeJson(text: string): boolean {
  const first = text.trimStart()[0];
  return first === '{' || first === '[';
}

function parseJson(text: string, limits: ParseLimits): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    // Flow-style YAML also starts with '{'; give it a chance before reporting the JSON error.
    try {
      return parseYaml(text, limits);
    } catch (yamlError) {
      // A limit it met is the answer; any other failure leaves the JSON error the clearer one.
      if (yamlError instanceof SvcError && yamlError.code === ErrorCode.LIMIT_EXCEEDED) throw yamlError;
      throw invalidSchema(`content is neither valid JSON nor YAML: ${(error as Error).message}`);
    }
  }
}

function parseYaml(text: string, limits: ParseLimits): unknown {
  let document: YAML.Document.Parsed;
  try {
    document = YAML.parseDocument(text, { ...YAML_OPTIONS, uniqueKeys: true });
  } catch (error) {
    throw yamlError(error, limits);
  }
  if (document.errors.length > 0) throw yamlError(document.errors[0], limits);
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: limits.maxYamlAliases });
  } catch (error) {
    throw yamlError(error, limits);
  }
  // An alias is the value it names, shared: what reads the document later meets it once per alias.
  if (hasAliases(document) && valuesExceed(value, limits.maxYamlExpandedValues)) {
    throw limitExceeded(
      `Invalid schema: YAML aliases expand the document to more than ${limits.maxYamlExpandedValues} values (maxYamlExpandedValues)`,
    );
  }
  return value;
}

function hasAliases(document: YAML.Document.Parsed): boolean {
  let found = false;
  YAML.visit(document, {
    Alias() {
      found = true;
      return YAML.visit.BREAK;
    },
  });
  return found;
}

/** Whether `value` holds more than `limit` values, a shared one counted each time it is reached; stops at the limit. */
function valuesExceed(value: unknown, limit: number): boolean {
  const stack: unknown[] = [value];
  let count = 0;
  while (stack.length > 0) {
    const node = stack.pop();
    if (++count > limit) return true;
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
    } else if (node !== null && typeof node === 'object') {
      for (const key in node) stack.push((node as Record<string, unknown>)[key]);
    }
  }
  return false;
}

function yamlError(error: unknown, limits: ParseLimits): Error {
  const message = error instanceof Error ? error.message : String(error);
  if (/Maximum call stack size exceeded/.test(message)) {
    return limitExceeded(
      `Invalid schema: document nesting exceeds the limit of ${limits.maxSchemaDepth} levels (maxSchemaDepth)`,
    );
  }
  if (/alias/i.test(message) && /resource exhaustion|excessive/i.test(message)) {
    return limitExceeded(
      `Invalid schema: YAML aliases expand beyond the limit of ${limits.maxYamlAliases} (maxYamlAliases)`,
    );
  }
  return invalidSchema(`content is not valid YAML: ${firstLine(message)}`);
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0]!;
}
