/**
 * The output of `svc compare` in its four formats: text (the spec's shape), JSON, Markdown (for a
 * pull-request comment) and GitHub workflow annotations (`::error title=...::...`).
 */
import { changeTextLines, changeToJson, countLine, endpointOf, type ChangeView } from './breaking-changes';

export const COMPARE_FORMATS = Object.freeze(['text', 'json', 'markdown', 'github'] as const);
export type CompareFormat = (typeof COMPARE_FORMATS)[number];

export interface CompareSubject {
  oldLocation: string;
  newLocation: string;
  /** A repository file the GitHub annotations point at (the new schema when it is a local file). */
  annotationFile?: string;
}

export function formatCompareReport(changes: readonly ChangeView[], format: CompareFormat, subject: CompareSubject): string {
  switch (format) {
    case 'text':
      return textReport(changes);
    case 'json':
      return `${JSON.stringify({ compatible: changes.length === 0, old: subject.oldLocation, new: subject.newLocation, breaking_changes: changes.map(changeToJson) }, null, 2)}\n`;
    case 'markdown':
      return markdownReport(changes, subject);
    case 'github':
      return githubReport(changes, subject);
  }
}

function textReport(changes: readonly ChangeView[]): string {
  const lines = [changes.length === 0 ? `${countLine(0)}: the new schema is compatible` : countLine(changes.length)];
  for (const change of changes) lines.push(...changeTextLines(change));
  return `${lines.join('\n')}\n`;
}

function markdownReport(changes: readonly ChangeView[], subject: CompareSubject): string {
  const compared = `${code(subject.oldLocation)} → ${code(subject.newLocation)}`;
  if (changes.length === 0) return `### No breaking changes\n\n${compared} is compatible.\n`;
  const rows = changes.map((change) =>
    `| ${code(change.type)} | ${code(endpointOf(change))} | ${cell(change.description)} | ${cell(change.oldValue)} | ${cell(change.newValue)} |`);
  return [
    `### ${countLine(changes.length)}`,
    '',
    compared,
    '',
    '| Type | Endpoint | Description | Old | New |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

/** A Markdown table cell: pipes escaped, line breaks flattened. */
function cell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** A code span that survives backticks inside the text (CommonMark: a longer fence). */
function code(text: string): string {
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  const padded = text.startsWith('`') || text.endsWith('`') ? ` ${text} ` : text;
  return cell(`${fence}${padded}${fence}`);
}

/**
 * One `::error` annotation per change (a `::notice` when there is none), then a plain count line
 * for people reading the log: GitHub hides the annotation lines from it.
 * https://docs.github.com/actions/reference/workflow-commands-for-github-actions
 */
function githubReport(changes: readonly ChangeView[], subject: CompareSubject): string {
  const file = subject.annotationFile ? `file=${escapeProperty(subject.annotationFile)},` : '';
  if (changes.length === 0) {
    return `::notice ${file}title=${escapeProperty('svc compare')}::${escapeData(`No breaking changes: ${subject.newLocation} is compatible with ${subject.oldLocation}`)}\n${countLine(0)}\n`;
  }
  const lines = changes.map((change) => {
    const title = escapeProperty(`${change.type} ${endpointOf(change)}`);
    const context = [change.oldValue && `old: ${change.oldValue}`, change.newValue && `new: ${change.newValue}`].filter(Boolean).join('; ');
    const message = context ? `${change.description} (${context})` : change.description;
    return `::error ${file}title=${title}::${escapeData(message)}`;
  });
  lines.push(countLine(changes.length));
  return `${lines.join('\n')}\n`;
}

function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
