/**
 * How a parameter or header is written as text: OpenAPI 3's `style` and `explode` with their
 * defaults by location, and the Swagger 2.0 collectionFormats OpenAPI 3 has no style for where they
 * are used: `tsv` anywhere, `pipes` and `ssv` in headers and paths (intake keeps them as
 * `x-collectionFormat`).
 * Validation reads values by it and fixture generation writes them by it, so both agree on every
 * style.
 */
import type { JsonObject } from '../json';
import type { ParameterLocation } from '../validation/messages';

/** The style that stands for Swagger 2.0's tsv (tab-separated). */
export const TAB_DELIMITED = 'tabDelimited';

/** The style each kept Swagger 2.0 collectionFormat (`x-collectionFormat`) stands for. */
const KEPT_COLLECTION_FORMATS: Readonly<Record<string, string>> = Object.freeze({ tsv: TAB_DELIMITED, pipes: 'pipeDelimited', ssv: 'spaceDelimited' });

const DEFAULT_STYLE: Record<ParameterLocation, string> = { path: 'simple', query: 'form', header: 'simple', cookie: 'form' };

export interface ParameterStyle {
  /** form, simple, label, matrix, spaceDelimited, pipeDelimited, deepObject, or TAB_DELIMITED. */
  readonly style: string;
  readonly explode: boolean;
}

/** A parameter's or header's style and explode, as declared or by default for its location. */
export function parameterStyle(node: JsonObject, location: ParameterLocation): ParameterStyle {
  const kept = typeof node['x-collectionFormat'] === 'string' ? KEPT_COLLECTION_FORMATS[node['x-collectionFormat']] : undefined;
  if (kept !== undefined) return { style: kept, explode: false };
  const style = typeof node.style === 'string' ? node.style : DEFAULT_STYLE[location];
  return { style, explode: typeof node.explode === 'boolean' ? node.explode : style === 'form' };
}

/**
 * A query style's item separator as a raw query string carries it, before decoding: written out or
 * encoded (`%20` or `+` for a space, `%7C` for a pipe, `%09` for a tab); commas as written.
 */
export function queryArraySeparator(style: string): string | RegExp {
  switch (style) {
    case 'spaceDelimited': return /%20|\+| /i;
    case 'pipeDelimited': return /%7C|\|/i;
    case TAB_DELIMITED: return /%09|\t/i;
    default: return arraySeparator(style);
  }
}

/**
 * What separates the items of a non-exploded array in a style's text (query, path, cookie, and
 * headers: simple in OpenAPI 3, whose intake refuses another style there, or a kept Swagger 2.0
 * collectionFormat).
 */
export function arraySeparator(style: string): string {
  switch (style) {
    case 'spaceDelimited': return ' ';
    case 'pipeDelimited': return '|';
    case TAB_DELIMITED: return '\t';
    default: return ',';
  }
}

/** The separators of a path array in a kept Swagger 2.0 collectionFormat, as written or percent-encoded. */
const KEPT_PATH_SEPARATORS: ReadonlyMap<string, RegExp> = new Map([
  ['pipeDelimited', /%7C|\|/gi],
  ['spaceDelimited', /%20| /gi],
  [TAB_DELIMITED, /%09|\t/gi],
]);

/**
 * A path value in a kept Swagger 2.0 collectionFormat (`/a/1|2`) as the simple style writes it
 * (`1,2`), its own commas encoded: path values are read in the simple style. Other values as they are.
 */
export function asSimplePathText(style: string, raw: string): string {
  const separator = KEPT_PATH_SEPARATORS.get(style);
  return separator === undefined ? raw : raw.replace(/,/g, '%2C').replace(separator, ',');
}
