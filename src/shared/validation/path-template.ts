/**
 * OpenAPI path templates (`/users/{id}/files/{name}.{ext}`) → find-my-way routes, or, for the
 * templates find-my-way reads differently, an RE2 matcher. Parameters are named by position
 * (`p0`, `p1`...) in both, so names that find-my-way would cut short (`{user-id}`) stay intact.
 */
import { compileSafeRegExp, escapeRegExp, type SafeRegExp } from '../regex';

export type TemplatePart = { literal: string } | { parameter: string };

export function parseTemplate(template: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let literal = '';
  let index = 0;
  while (index < template.length) {
    const open = template.indexOf('{', index);
    const close = open < 0 ? -1 : template.indexOf('}', open + 1);
    if (open < 0 || close < 0 || close === open + 1) {
      literal += template.slice(index);
      break;
    }
    literal += template.slice(index, open);
    if (literal !== '') parts.push({ literal });
    literal = '';
    parts.push({ parameter: template.slice(open + 1, close) });
    index = close + 1;
  }
  if (literal !== '') parts.push({ literal });
  return parts;
}

export function parameterNames(parts: readonly TemplatePart[]): string[] {
  return parts.flatMap((part) => ('parameter' in part ? [part.parameter] : []));
}

/** Characters find-my-way gives a meaning in a route (parameters, wildcards, regexes) or decodes away. */
const ROUTER_SYNTAX = /[:*()?#%]/;

/**
 * The find-my-way route, or undefined when find-my-way would read the template differently:
 * syntax characters in a literal, or a parameter not followed by the end, '/', '-' or '.'
 * (find-my-way ends a parameter name only there).
 */
export function toRouterPattern(parts: readonly TemplatePart[]): string | undefined {
  let pattern = '';
  let position = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if ('literal' in part) {
      if (ROUTER_SYNTAX.test(part.literal)) return undefined;
      pattern += part.literal;
      continue;
    }
    const next = parts[i + 1];
    if (next !== undefined && !('literal' in next && /^[-./]/.test(next.literal))) return undefined;
    pattern += `:p${position++}`;
  }
  return pattern;
}

/**
 * What one parameter's text can be, as an RE2 fragment without captures (`(?:\.json|\.xml)` for
 * an enum, `-?[0-9]+` for an integer); undefined when the schema says nothing usable.
 */
export type ParameterShape = (name: string) => string | undefined;

/**
 * An RE2 matcher for templates find-my-way cannot take; captures are the parameters in order.
 * Two parameters side by side (`{id}{extension}`) are split by their schemas: each takes what its
 * `shape` allows, and one without a shape takes as little as it can, so `abc.json` splits into
 * `abc` and `.json` when `.json` is an enum value of the second, not greedily.
 */
export function toTemplateMatcher(parts: readonly TemplatePart[], shape: ParameterShape = () => undefined): SafeRegExp {
  let body = '';
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if ('literal' in part) {
      body += escapeRegExp(part.literal);
      continue;
    }
    const adjacent = 'parameter' in (parts[i + 1] ?? {}) || 'parameter' in (parts[i - 1] ?? {});
    const known = adjacent ? shape(part.parameter) : undefined;
    const followedByParameter = 'parameter' in (parts[i + 1] ?? {});
    body += `(${known ?? (followedByParameter ? '[^/]+?' : '[^/]+')})`;
  }
  return compileSafeRegExp(`^${body}/?$`);
}

/** How literal a template is, segment by segment: literal beats mixed (`{name}:verb`) beats a bare parameter. */
export type Specificity = readonly number[];

const LITERAL_SEGMENT = 1_000_000;
const BARE_PARAMETER = 0;

/** Per segment: LITERAL_SEGMENT for a literal, 1 + literal characters for a mixed one, 0 for a bare parameter. */
export function templateSpecificity(parts: readonly TemplatePart[]): Specificity {
  const ranks: number[] = [];
  let literalChars = 0;
  let parameters = 0;
  const close = () => {
    ranks.push(parameters === 0 ? LITERAL_SEGMENT : literalChars === 0 && parameters === 1 ? BARE_PARAMETER : 1 + literalChars);
    literalChars = 0;
    parameters = 0;
  };
  let started = false;
  for (const part of parts) {
    if ('parameter' in part) {
      parameters++;
      started = true;
      continue;
    }
    const pieces = part.literal.split('/');
    pieces.forEach((piece, index) => {
      if (index > 0) {
        if (started) close();
        started = true;
      }
      literalChars += piece.length;
    });
  }
  close();
  return ranks;
}

/** Positive when `a` is more literal than `b`: compared segment by segment from the left. */
export function compareSpecificity(a: Specificity, b: Specificity): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}
