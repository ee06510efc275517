/**
 * Schema text → plain JSON value, behind the intake guards: size, UTF-8, YAML alias bombs and
 * nesting depth. JSON text takes the fast path (JSON.parse); anything else is read as YAML 1.2,
 * with YAML 1.1's merge keys (`<<: *base`), which API descriptions use to share fragments and
 * which other readers (js-yaml, PyYAML) merge. Merged aliases count against `maxYamlAliases` like
 * any alias.
 */
import YAML from 'yaml';
import { LIMITS, formatBytes } from '../limits';
import { invalidSchema, limitExceeded } from '../errors';
import { nestingDepthExceeds } from '../json';

export interface ParseLimits {
  maxSchemaBytes: number;
  maxSchemaDepth: number;
  maxYamlAliases: number;
}

const DEFAULT_PARSE_LIMITS: ParseLimits = {
  maxSchemaBytes: LIMITS.maxSchemaBytes,
  maxSchemaDepth: LIMITS.maxSchemaDepth,
  maxYamlAliases: LIMITS.maxYamlAliases,
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

  const value = looksLikeJson(text) ? parseJson(text) : parseYaml(text, limits);
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

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    // Flow-style YAML also starts with '{'; give it a chance before reporting the JSON error.
    try {
      return YAML.parse(text, { ...YAML_OPTIONS, maxAliasCount: LIMITS.maxYamlAliases });
    } catch {
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
  try {
    return document.toJS({ maxAliasCount: limits.maxYamlAliases });
  } catch (error) {
    throw yamlError(error, limits);
  }
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
