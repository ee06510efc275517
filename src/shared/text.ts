/**
 * Text cut for messages and logs. Cuts never split a surrogate pair: half a character would reach
 * the reader as U+FFFD.
 */

/** `text` cut to `maxChars` with "…" after it when longer. */
export function clip(text: string, maxChars: number): string {
  return text.length > maxChars ? `${head(text, maxChars)}…` : text;
}

/** The first `chars` code units of `text`, one fewer when the last would be half a pair. */
export function head(text: string, chars: number): string {
  const code = text.charCodeAt(chars - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? chars - 1 : chars);
}

/** The last `chars` code units of `text`, one fewer when the first would be half a pair. */
export function tail(text: string, chars: number): string {
  const start = text.length - chars;
  const code = text.charCodeAt(start);
  return text.slice(code >= 0xdc00 && code <= 0xdfff ? start + 1 : start);
}

/**
 * `text` without its trailing slashes, in one pass. Not `replace(/\/+$/, '')`: that expression is
 * tried again from every slash of a run, and 100,000 slashes took it 4 s.
 */
export function withoutTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x2f /* / */) end--;
  return end === text.length ? text : text.slice(0, end);
}
