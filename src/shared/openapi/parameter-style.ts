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

/**
 * What separates the items of a path array: a kept Swagger 2.0 collectionFormat's separator as
 * written or percent-encoded (`/a/1|2`, `/a/1%7C2`), else the simple style's comma.
 */
export function pathArraySeparator(style: string): string | RegExp {
  switch (style) {
    case 'pipeDelimited': return /%7C|\|/i;
    case 'spaceDelimited': return /%20| /i;
    case TAB_DELIMITED: return /%09|\t/i;
    default: return ',';
  }
}
