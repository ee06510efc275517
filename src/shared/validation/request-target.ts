/**
 * The path of an interaction as given (`/pets/1?limit=5#x`, or a full URL) → the path matched
 * against templates and the raw query string. A text that starts with `/` is an HTTP origin-form
 * target (RFC 9112 section 3.2.1) even when it starts with `//`: its first segment is empty
 * (`//openapi`), it does not name a host.
 */

export interface RequestTarget {
  /** Starts with '/', no query string or fragment, not decoded (the router decodes). */
  path: string;
  /** Text after '?', '' when none. */
  query: string;
}

export type TargetProblem = 'too-long' | 'not-absolute';

/** The target, or what is wrong with the text. */
export function parseRequestTarget(text: string, maxChars: number): RequestTarget | TargetProblem {
  if (text.length > maxChars) return 'too-long';
  let rest = text;
  const hash = rest.indexOf('#');
  if (hash >= 0) rest = rest.slice(0, hash);
  if (rest.charCodeAt(0) !== 0x2f /* / */) {
    rest = stripOrigin(rest) ?? '';
    if (rest.charCodeAt(0) !== 0x2f) return 'not-absolute';
  }
  const question = rest.indexOf('?');
  return question < 0 ? { path: rest, query: '' } : { path: rest.slice(0, question), query: rest.slice(question + 1) };
}

/** `https://api.example.com/v1/pets` → `/v1/pets`; undefined when not a URL. */
function stripOrigin(text: string): string | undefined {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(text);
  if (scheme === null) return undefined;
  const start = scheme[0].length;
  const slash = text.indexOf('/', start);
  const question = text.indexOf('?', start);
  if (slash < 0 || (question >= 0 && question < slash)) return `/${question >= 0 ? text.slice(question) : ''}`;
  return text.slice(slash);
}
