/**
 * OpenAPI path templates (`/users/{id}/files/{name}.{ext}`) → find-my-way routes, or, for the
 * templates find-my-way reads differently, an RE2 matcher. Parameters are named by position
 * (`p0`, `p1`...) in both, so names that find-my-way would cut short (`{user-id}`) stay intact.
 */
import { compileSafeRegExp, type SafeRegExp } from '../regex';

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

/** An RE2 matcher for templates find-my-way cannot take; captures are the parameters in order. */
export function toTemplateMatcher(parts: readonly TemplatePart[]): SafeRegExp {
  const body = parts.map((part) => ('literal' in part ? escapeRegExp(part.literal) : '([^/]+)')).join('');
  return compileSafeRegExp(`^${body}/?$`);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
