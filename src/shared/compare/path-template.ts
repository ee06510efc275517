/**
 * Path templates compared by shape: `/users/{id}` and `/users/{userId}` name the same endpoint,
 * because a client sends the same URL to both.
 */
const TEMPLATE_PARAMETER = /\{[^}/]*\}/g;

/** `/users/{id}/posts/{postId}` → `/users/{}/posts/{}`. */
export function normalizePathTemplate(path: string): string {
  return path.replace(TEMPLATE_PARAMETER, '{}');
}

export function samePathTemplate(a: string, b: string): boolean {
  return a === b || normalizePathTemplate(a) === normalizePathTemplate(b);
}

/** Names of the template's parameters in the order they appear (`['id', 'postId']`). */
export function pathTemplateParameterNames(path: string): string[] {
  return [...path.matchAll(TEMPLATE_PARAMETER)].map((match) => match[0].slice(1, -1));
}
