/**
 * A schema file as the user wrote it: its parsed value (to map locations back through a Swagger 2.0
 * conversion) and the line of any JSON pointer in it (for GitHub annotations). JSON and YAML alike:
 * the YAML parser reads both and keeps every node's offset.
 */
import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import type { JsonObject } from '../../shared/json';
import { isSwagger2Document, pointerTokens } from '../../shared/compare/swagger2-locations';

export class SourceDocument {
  readonly value: unknown;
  readonly #lines = new LineCounter();
  readonly #root: Node | null;

  constructor(text: string) {
    // The text was already checked by the schema intake; here only positions are wanted, and the
    // value as intake read it (merge keys merged: openapi/parse-text.ts).
    const document = parseDocument(text, { lineCounter: this.#lines, uniqueKeys: false, merge: true });
    this.#root = document.contents as Node | null;
    this.value = document.toJS({ maxAliasCount: -1 }) as unknown;
  }

  /** The Swagger 2.0 document, when that is what the user wrote. */
  get swagger2(): JsonObject | undefined {
    return isSwagger2Document(this.value) ? this.value : undefined;
  }

  /**
   * 1-based line of the node a pointer names (of its key, for a map entry); the line of the deepest
   * node that exists when the rest of the pointer does not; undefined for an empty pointer.
   */
  lineOf(pointer: string): number | undefined {
    if (!pointer) return undefined;
    let node: unknown = this.#root;
    let offset: number | undefined;
    for (const token of pointerTokens(pointer)) {
      if (isMap(node)) {
        const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === token);
        if (!pair) break;
        offset = (pair.key as Node).range?.[0] ?? offset;
        node = pair.value;
      } else if (isSeq(node) && /^\d+$/.test(token) && Number(token) < node.items.length) {
        const item = node.items[Number(token)] as Node;
        offset = item.range?.[0] ?? offset;
        node = item;
      } else {
        break;
      }
    }
    return offset === undefined ? undefined : this.#lines.linePos(offset).line;
  }
}
