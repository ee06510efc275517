/**
 * Schema text → plain JSON value, behind the intake guards: size, UTF-8, YAML alias bombs and
 * nesting depth. JSON text takes the fast path (JSON.parse); anything else is read as YAML 1.2,
 * with YAML 1.1's merge keys (`<<: *base`), which API descriptions use to share fragments and
 * which other readers (js-yaml, PyYAML) merge. Merged aliases count against `maxYamlAliases` like
 * any alias, and a document with aliases is held to `maxYamlExpandedChars` once expanded.
 */
import YAML from 'yaml';
import { LIMITS, formatBytes } from '../limits';
import { ErrorCode, SvcError, invalidSchema, limitExceeded } from '../errors';
import { nestingDepthExceeds } from '../json';

export interface ParseLimits {
  maxSchemaBytes: number;
  maxSchemaDepth: number;
  maxYamlAliases: number;
  maxYamlExpandedChars: number;
}

const DEFAULT_PARSE_LIMITS: ParseLimits = {
  maxSchemaBytes: LIMITS.maxSchemaBytes,
  maxSchemaDepth: LIMITS.maxSchemaDepth,
  maxYamlAliases: LIMITS.maxYamlAliases,
  maxYamlExpandedChars: LIMITS.maxYamlExpandedChars,
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
    // Unique keys are checked below: the yaml package compares each key with every earlier one of its
    // map, and one map of 50,000 keys (780 KB) took 9 s, 100,000 ran past intakeMaxMs.
    document = YAML.parseDocument(text, { ...YAML_OPTIONS, uniqueKeys: false });
  } catch (error) {
    throw yamlError(error, limits);
  }
  if (document.errors.length > 0) throw yamlError(document.errors[0], limits);
  const duplicate = firstDuplicateKey(document);
  if (duplicate !== undefined) throw invalidSchema(`content is not valid YAML: Map keys must be unique at ${lineAndColumn(text, duplicate)}:`);
  // Measured before it is built: a merge key copies what it names, and building a bomb is the harm.
  if (hasAliases(document)) {
    const targets = aliasTargets(document);
    let size: number;
    try {
      size = expandedChars(document, targets, limits.maxYamlExpandedChars);
    } catch (error) {
      throw yamlError(error, limits);
    }
    if (size > limits.maxYamlExpandedChars) {
      throw limitExceeded(
        `Invalid schema: YAML aliases expand the document to more than ${limits.maxYamlExpandedChars} characters (maxYamlExpandedChars)`,
      );
    }
    forgetUnusedAnchors(document, targets);
  }
  try {
    return document.toJS({ maxAliasCount: limits.maxYamlAliases });
  } catch (error) {
    throw yamlError(error, limits);
  }
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

/**
 * About the characters JSON would write for the document with every alias and merge key expanded,
 * or a number past `limit` once it is clear the document is over it. Each node is measured once
 * (what an alias names is not measured again), so a bomb of nested aliases costs its text's size to
 * measure; an alias inside what it names has no end.
 */
function expandedChars(document: YAML.Document.Parsed, targets: ReadonlyMap<YAML.Alias, unknown>, limit: number): number {
  const measured = new Map<unknown, number>();
  const measuring = new Set<unknown>();
  const charsOf = (node: unknown): number => {
    if (YAML.isAlias(node)) return charsOf(targets.get(node));
    if (YAML.isScalar(node)) return typeof node.value === 'string' ? node.value.length + 2 : String(node.value).length;
    if (!YAML.isCollection(node) && !YAML.isPair(node)) return 4; // empty: null
    const known = measured.get(node);
    if (known !== undefined) return known;
    if (measuring.has(node)) return Infinity;
    measuring.add(node);
    let chars = 2;
    if (YAML.isPair(node)) chars = charsOf(node.key) + charsOf(node.value) + 1;
    else for (const item of node.items) if ((chars += charsOf(item) + 1) > limit) break;
    measuring.delete(node);
    measured.set(node, chars);
    return chars;
  };
  return charsOf(document.contents);
}

/**
 * Where the first key equal to an earlier key of its map starts (equal as the yaml package's
 * `uniqueKeys` has it: the same node, or scalars of the same value), one Set per map.
 */
function firstDuplicateKey(document: YAML.Document.Parsed): number | undefined {
  let offset: number | undefined;
  YAML.visit(document, {
    Map(_key, map) {
      const seen = new Set<unknown>();
      for (const { key } of map.items) {
        // NaN is never equal to NaN in the yaml package's check (`.nan` keys are kept), but is in a Set.
        const identity = YAML.isScalar(key) && !Number.isNaN(key.value) ? key.value : key;
        if (seen.has(identity)) {
          offset = (key as YAML.Node).range?.[0] ?? 0;
          return YAML.visit.BREAK;
        }
        seen.add(identity);
      }
      return undefined;
    },
  });
  return offset;
}

/** `line L, column C` of a text offset, counted from 1 as the yaml package writes them. */
function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return `line ${line}, column ${offset - before.lastIndexOf('\n')}`;
}

/**
 * What each alias names: the last node before it with its anchor, as the yaml package resolves it,
 * in one walk. Its own `Alias.resolve` walks the whole document again for each alias: a 300 KB
 * document of 9,000 anchors and one list of their aliases ran past intakeMaxMs (30 s).
 */
function aliasTargets(document: YAML.Document.Parsed): Map<YAML.Alias, unknown> {
  const targets = new Map<YAML.Alias, unknown>();
  const anchored = new Map<string, unknown>();
  YAML.visit(document, {
    Node(_key, node) {
      if (YAML.isAlias(node)) targets.set(node, anchored.get(node.source));
      else if (node.anchor) anchored.set(node.anchor, node);
    },
  });
  return targets;
}

/**
 * Drops the anchors no alias names before the document is built: the yaml package resolves each
 * alias by scanning every anchored node before it, so anchors nothing names (100,000 of them) made
 * each alias scan them all.
 */
function forgetUnusedAnchors(document: YAML.Document.Parsed, targets: ReadonlyMap<YAML.Alias, unknown>): void {
  const named = new Set(targets.values());
  YAML.visit(document, {
    Node(_key, node) {
      if (!YAML.isAlias(node) && node.anchor && !named.has(node)) node.anchor = undefined;
    },
  });
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
