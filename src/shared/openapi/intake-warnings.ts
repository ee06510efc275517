/**
 * What a registration relaxed or ignored, reported with a JSON pointer into the document the
 * engines use (for a Swagger 2.0 text: its OpenAPI 3.0 conversion). Documents that real tools
 * accept register; every deviation read leniently is listed here, never silent. The codes are
 * stable (docs/real-world-documents.md describes each).
 */

export const IntakeWarningCode = Object.freeze({
  /** A pattern RE2 cannot run and the ReDoS analyser could not prove safe: not checked. */
  PATTERN_NOT_ENFORCED: 'PATTERN_NOT_ENFORCED',
  /** A pattern RE2 cannot run, proven free of super-linear backtracking: checked by the JavaScript engine. */
  PATTERN_ECMA_ENGINE: 'PATTERN_ECMA_ENGINE',
  /** A schema keyword whose value is malformed (`required: []`, a non-string `pattern`...): ignored. */
  KEYWORD_IGNORED: 'KEYWORD_IGNORED',
  /** A field OpenAPI does not define where only annotations live (info, xml, tags, schema objects): ignored. */
  FIELD_IGNORED: 'FIELD_IGNORED',
  /** A parameter with neither `schema` nor `content`: any value is accepted. */
  PARAMETER_WITHOUT_SCHEMA: 'PARAMETER_WITHOUT_SCHEMA',
  /** An operation without `responses`: any response is accepted. */
  RESPONSES_MISSING: 'RESPONSES_MISSING',
  /** A path key with a `#` part (`/#Action=DescribeStacks`): the part after `#` selects by query parameters. */
  QUERY_SELECTOR_PATH: 'QUERY_SELECTOR_PATH',
  /** A parameters list naming one parameter (name and location) twice, which OpenAPI forbids: the last one is used. */
  DUPLICATE_PARAMETER: 'DUPLICATE_PARAMETER',
  /** A field both beside a path item's `$ref` and in the path item it names: the one beside the `$ref` is used. */
  PATH_ITEM_FIELD_OVERRIDDEN: 'PATH_ITEM_FIELD_OVERRIDDEN',
  /** More warnings than are listed (the last entry says how many were left out). */
  MORE_WARNINGS: 'MORE_WARNINGS',
} as const);

export type IntakeWarningCode = (typeof IntakeWarningCode)[keyof typeof IntakeWarningCode];

export interface IntakeWarning {
  code: IntakeWarningCode;
  /** JSON pointer (RFC 6901) into the document; '' for the document as a whole. */
  pointer: string;
  message: string;
}

/** Warnings listed per registration; a document with more gets one MORE_WARNINGS entry at the end. */
export const MAX_LISTED_WARNINGS = 200;
/** How much of the document's own text (a pointer, a pattern, a `$ref`) a warning or refusal quotes. */
export const MAX_QUOTED_CHARS = 200;

/** Collects warnings in document order, at most MAX_LISTED_WARNINGS listed, plus a count of the rest. */
export class IntakeWarnings {
  readonly #listed: IntakeWarning[] = [];
  #omitted = 0;
  readonly #counts = new Map<IntakeWarningCode, number>();

  add(code: IntakeWarningCode, pointer: string, message: string): void {
    this.#counts.set(code, (this.#counts.get(code) ?? 0) + 1);
    if (this.#listed.length < MAX_LISTED_WARNINGS) this.#listed.push({ code, pointer, message });
    else this.#omitted++;
  }

  /** Every warning by code, those left out of the list included. */
  counts(): Partial<Record<IntakeWarningCode, number>> {
    return Object.fromEntries(this.#counts) as Partial<Record<IntakeWarningCode, number>>;
  }

  /** The listed warnings, ending with a MORE_WARNINGS entry when some were left out. */
  toList(): IntakeWarning[] {
    if (this.#omitted === 0) return [...this.#listed];
    const counts = [...this.#counts].map(([code, count]) => `${code} ${count}`).join(', ');
    return [
      ...this.#listed,
      { code: IntakeWarningCode.MORE_WARNINGS, pointer: '', message: `${this.#omitted} more warnings not listed (in all: ${counts})` },
    ];
  }
}
