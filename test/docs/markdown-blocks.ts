/**
 * The fenced code blocks of a Markdown page, with the marker comment that may stand on the line
 * before each one. The convention every checked page follows (docs/README.md, "Examples are tested"):
 *
 * - ```console  `$ ` lines are commands, the lines after each one its expected output.
 * - ```sh       a script: every line runs, in order, and must succeed.
 * - ```js       a CommonJS script (top-level `await` allowed) that must exit 0.
 * - ```json, ```yaml   data: must parse.
 * - ```text     an illustration (diagram, grammar, log excerpt): not run.
 * - `<!-- not run: <reason> -->` before a block: not run, for the reason given.
 * - `<!-- file: <path> -->` before a block: the block is that repository file, verbatim.
 *
 * Anything else (no language, another language, an empty reason) is refused, so no example goes
 * unchecked by accident.
 */

export type BlockMarker =
  | { kind: 'not-run'; reason: string }
  | { kind: 'file'; path: string };

export interface FencedBlock {
  /** The info string's first word, lower case ('' when the fence has none). */
  language: string;
  /** The block's text, its fence's indentation removed, ending with a newline (empty block: ''). */
  content: string;
  /** 1-based line of the opening fence. */
  line: number;
  marker: BlockMarker | undefined;
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)[^`]*$/;

/** The line that closes a block opened with `fence`: the same character, at least as many, nothing else. */
function closes(line: string, fence: string): boolean {
  const trimmed = line.trim();
  return trimmed.length >= fence.length && trimmed === fence[0]!.repeat(trimmed.length);
}
const MARKER = /^\s*<!--\s*(not run|file):\s*(.*?)\s*-->\s*$/;

export function fencedBlocks(markdown: string): FencedBlock[] {
  const lines = markdown.split('\n');
  const blocks: FencedBlock[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const opening = FENCE.exec(lines[index]!);
    if (!opening) continue;
    const [, indent, fence] = opening as unknown as [string, string, string, string];
    const language = (opening[3] ?? '').toLowerCase();
    const body: string[] = [];
    let closed = false;
    let end = index + 1;
    for (; end < lines.length; end += 1) {
      const line = lines[end]!;
      if (closes(line, fence)) {
        closed = true;
        break;
      }
      body.push(line.startsWith(indent) ? line.slice(indent.length) : line.trimStart());
    }
    if (!closed) throw new Error(`line ${index + 1}: the code fence is never closed`);
    blocks.push({
      language,
      content: body.length === 0 ? '' : `${body.join('\n')}\n`,
      line: index + 1,
      marker: markerBefore(lines, index),
    });
    index = end;
  }
  return blocks;
}

/** The marker on the nearest non-blank line before the fence, if that line is one. */
function markerBefore(lines: readonly string[], fenceIndex: number): BlockMarker | undefined {
  let index = fenceIndex - 1;
  while (index >= 0 && lines[index]!.trim() === '') index -= 1;
  const match = index >= 0 ? MARKER.exec(lines[index]!) : null;
  if (!match) return undefined;
  return match[1] === 'not run' ? { kind: 'not-run', reason: match[2]! } : { kind: 'file', path: match[2]! };
}

export interface ConsoleCommand {
  /** The command as bash reads it (continuation lines included). */
  command: string;
  /** The lines shown after it, up to the next command. */
  expectedOutput: string[];
}

/** `$ ` lines are commands (a line ending in `\` continues on the next); the lines after them, their output. */
export function consoleCommands(content: string): ConsoleCommand[] {
  const commands: ConsoleCommand[] = [];
  const lines = content.replace(/\n$/, '').split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    if (line.startsWith('$ ')) {
      const parts = [line.slice(2)];
      while (parts.at(-1)!.endsWith('\\') && index + 1 < lines.length) {
        index += 1;
        parts.push(lines[index]!);
      }
      commands.push({ command: parts.join('\n'), expectedOutput: [] });
    } else if (commands.length === 0) {
      throw new Error(`a console block must start with a "$ " command line (found "${line}")`);
    } else {
      commands.at(-1)!.expectedOutput.push(line);
    }
  }
  return commands;
}

export interface MarkdownLink {
  target: string;
  line: number;
}

/** Inline links and images outside code blocks and code spans. */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  let openFence: string | undefined;
  markdown.split('\n').forEach((line, index) => {
    if (openFence !== undefined) {
      if (closes(line, openFence)) openFence = undefined;
      return;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      openFence = fence[2]!;
      return;
    }
    const prose = line.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) links.push({ target: match[1]!, line: index + 1 });
  });
  return links;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let openFence: string | undefined;
  for (const line of markdown.split('\n')) {
    if (openFence !== undefined) {
      if (closes(line, openFence)) openFence = undefined;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      openFence = fence[2]!;
      continue;
    }
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]!
      .toLowerCase()
      .replace(/<[^>]+>/g, '')
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}
