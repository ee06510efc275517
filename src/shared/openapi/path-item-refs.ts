/**
 * A Path Item Object may be a `$ref` with fields of its own beside it (OpenAPI 3.0 §4.7.9, 3.1
 * §4.8.9): the fields of both apply, and only a field in both is undefined behaviour. Every engine
 * follows a path item's `$ref` to its target and reads that alone, so intake writes such a path
 * item out in the engine's copy: the target's fields, then its own over them (a field in both is
 * this path item's, with a warning). A path item that is a bare `$ref`, or has only a summary or
 * description beside it, is left as written.
 */
import { escapePointerToken, isJsonObject, type JsonObject } from '../json';
import { LIMITS } from '../limits';
import { clip } from '../text';
import type { OpenApiDocument } from './document';
import { IntakeWarningCode, MAX_QUOTED_CHARS, type IntakeWarnings } from './intake-warnings';
import { resolvePointer } from './refs';

/** Fields beside a path item's `$ref` that change nothing an engine reads. */
const ANNOTATION_FIELDS = new Set(['$ref', 'summary', 'description']);

export function mergePathItemRefSiblings(document: OpenApiDocument, warnings: IntakeWarnings): void {
  const paths = isJsonObject(document.paths) ? document.paths : {};
  for (const [template, item] of Object.entries(paths)) {
    if (!isJsonObject(item) || typeof item.$ref !== 'string' || !hasOwnFields(item)) continue;
    const chain = refChain(document, item);
    if (chain === undefined) continue; // dangling or circular: refused by the reference checks that follow
    let merged: JsonObject = { ...chain[chain.length - 1]! };
    for (let i = chain.length - 2; i >= 0; i--) {
      const { $ref: target, ...own } = chain[i]!;
      for (const field of Object.keys(own)) {
        if (ANNOTATION_FIELDS.has(field) || field.startsWith('x-') || merged[field] === undefined) continue;
        warnings.add(
          IntakeWarningCode.PATH_ITEM_FIELD_OVERRIDDEN,
          `/paths/${escapePointerToken(template)}/${escapePointerToken(field)}`,
          `"${field}" is both beside the $ref ${JSON.stringify(clip(String(target), MAX_QUOTED_CHARS))} of path item "${clip(template, MAX_QUOTED_CHARS)}" and in the path item it names: the one beside the $ref is used`,
        );
      }
      merged = { ...merged, ...own };
    }
    paths[template] = merged;
  }
}

function hasOwnFields(item: JsonObject): boolean {
  return Object.keys(item).some((field) => !ANNOTATION_FIELDS.has(field) && !field.startsWith('x-'));
}

/** The path item, the path items its `$ref`s lead through, and the object they end at; undefined when they end at none. */
function refChain(document: OpenApiDocument, item: JsonObject): JsonObject[] | undefined {
  const chain = [item];
  for (let hops = 0; hops < LIMITS.maxRefChainHops; hops++) {
    const ref = chain[chain.length - 1]!.$ref;
    if (typeof ref !== 'string') return chain;
    const target = resolvePointer(document, ref);
    if (!isJsonObject(target) || chain.includes(target)) return undefined;
    chain.push(target);
  }
  return undefined;
}

