/**
 * The output of `svc compare` in its seven formats: text (the spec's shape), JSON, YAML, Markdown (a
 * pull-request comment), HTML (a build artifact), JUnit XML (CI test reports) and GitHub workflow
 * annotations. Every format shows the same changes in the same order: errors, warnings, infos, each in
 * the engine's documented order.
 */
import { stringify as toYaml } from 'yaml';
import { severityRank, type ReportedChange, type Severity } from '../../shared/compare/reported-change';
import { countLine, endpointOf } from './breaking-changes';

export const COMPARE_FORMATS = Object.freeze(['text', 'json', 'yaml', 'markdown', 'html', 'junit', 'github'] as const);
export type CompareFormat = (typeof COMPARE_FORMATS)[number];

/** A change with the line of its location in the new (or old) file, where it could be found. */
export interface LocatedChange extends ReportedChange {
  /** The file the line is in (the annotation file, or the old file for a removal it cannot show). */
  file?: string;
  line?: number;
}

export interface CompareReport {
  oldLocation: string;
  newLocation: string;
  /** Every reported change, errors first (see sortBySeverity). */
  changes: readonly LocatedChange[];
  /** How many changes the ignore file hid. */
  ignoredCount: number;
  /** The lowest severity that fails the comparison (`--fail-on`). */
  failOn: Severity;
  /** Whether `info` changes are shown (`--changelog`). */
  changelog: boolean;
  /** Locations were mapped back to the user's Swagger 2.0 document. */
  swagger2: boolean;
}

/** Errors, then warnings, then infos; stable within a severity. */
export function sortBySeverity<T extends ReportedChange>(changes: readonly T[]): T[] {
  return [...changes].sort((a, b) => severityRank(b.severity) - severityRank(a.severity));
}

/** Whether the comparison fails: a change at or above `--fail-on`. */
export function failsGate(report: Pick<CompareReport, 'changes' | 'failOn'>): boolean {
  return report.changes.some((change) => severityRank(change.severity) >= severityRank(report.failOn));
}

export function formatCompareReport(report: CompareReport, format: CompareFormat): string {
  switch (format) {
    case 'text':
      return textReport(report);
    case 'json':
      return `${JSON.stringify(reportObject(report), null, 2)}\n`;
    case 'yaml':
      return toYaml(reportObject(report), { lineWidth: 0 });
    case 'markdown':
      return markdownReport(report);
    case 'html':
      return htmlReport(report);
    case 'junit':
      return junitReport(report);
    case 'github':
      return githubReport(report);
  }
}

function counts(changes: readonly ReportedChange[]): Record<Severity, number> {
  const result: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const change of changes) result[change.severity]++;
  return result;
}

/** `2 warnings, 5 info changes, 1 ignored`: everything that is not counted by the first line. */
function othersLine(report: CompareReport): string {
  const { warning, info } = counts(report.changes);
  const parts = [`${warning} warning${warning === 1 ? '' : 's'}`];
  if (report.changelog) parts.push(`${info} info change${info === 1 ? '' : 's'}`);
  if (report.ignoredCount > 0) parts.push(`${report.ignoredCount} ignored`);
  return parts.join(', ');
}

/** The JSON and YAML shape: the spec's fields first (`compatible`, `breaking_changes`), then every change with its rule. */
function reportObject(report: CompareReport): object {
  const errors = report.changes.filter((change) => change.severity === 'error');
  const summary = counts(report.changes);
  return {
    compatible: errors.length === 0,
    passed: !failsGate(report),
    fail_on: report.failOn,
    old: report.oldLocation,
    new: report.newLocation,
    breaking_changes: errors.map((change) => ({
      type: change.breakingType,
      path: change.path,
      method: change.method,
      description: change.description,
      old_value: change.oldValue,
      new_value: change.newValue,
    })),
    changes: report.changes.map((change) => ({
      id: change.id,
      severity: change.severity,
      type: change.breakingType,
      path: change.path,
      method: change.method,
      description: change.description,
      old_value: change.oldValue,
      new_value: change.newValue,
      location: { pointer: change.pointer, ...(change.file ? { file: change.file } : {}), ...(change.line ? { line: change.line } : {}) },
    })),
    summary: { ...summary, ignored: report.ignoredCount },
    ...(report.swagger2 ? { locations: 'pointers into the Swagger 2.0 document as written' } : {}),
  };
}

function label(change: ReportedChange): string {
  return change.severity === 'error' ? change.breakingType : change.severity.toUpperCase();
}

function textReport(report: CompareReport): string {
  const errors = report.changes.filter((change) => change.severity === 'error').length;
  const lines = [errors === 0 ? `${countLine(0)}: the new schema is compatible` : countLine(errors)];
  const others = report.changes.length - errors;
  if (others > 0 || report.ignoredCount > 0) lines[0] += ` (${othersLine(report)})`;
  for (const change of report.changes) {
    lines.push(`[${label(change)}] ${change.description}`);
    if (change.oldValue) lines.push(`  Old: ${change.oldValue}`);
    if (change.newValue) lines.push(`  New: ${change.newValue}`);
    lines.push(`  Rule: ${change.id} (${change.severity})${change.line ? `, ${change.file ?? 'line'}:${change.line}` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}

function markdownReport(report: CompareReport): string {
  const compared = `${code(report.oldLocation)} → ${code(report.newLocation)}`;
  const errors = report.changes.filter((change) => change.severity === 'error').length;
  if (report.changes.length === 0) {
    const ignored = report.ignoredCount > 0 ? ` (${report.ignoredCount} ignored)` : '';
    return `### No breaking changes\n\n${compared} is compatible${ignored}.\n`;
  }
  const rows = report.changes.map((change) =>
    `| ${change.severity} | ${code(change.id)} | ${code(endpointOf(change))} | ${cell(change.description)} | ${cell(change.oldValue)} | ${cell(change.newValue)} |`);
  return [
    `### ${countLine(errors)}`,
    '',
    `${compared}: ${othersLine(report)}.`,
    '',
    '| Severity | Rule | Endpoint | Change | Old | New |',
    '|---|---|---|---|---|---|',
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

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** One self-contained page (inline style, no script), for a CI artifact. */
function htmlReport(report: CompareReport): string {
  const errors = report.changes.filter((change) => change.severity === 'error').length;
  const title = `${countLine(errors)}: ${report.oldLocation} → ${report.newLocation}`;
  const rows = report.changes.map((change) => [
    '<tr>',
    `<td class="${change.severity}">${change.severity}</td>`,
    `<td><code>${escapeXml(change.id)}</code></td>`,
    `<td><code>${escapeXml(endpointOf(change))}</code></td>`,
    `<td>${escapeXml(change.description)}</td>`,
    `<td>${escapeXml(change.oldValue)}</td>`,
    `<td>${escapeXml(change.newValue)}</td>`,
    '</tr>',
  ].join(''));
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<title>${escapeXml(title)}</title>`,
    '<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left;vertical-align:top}.error{color:#b00020;font-weight:bold}.warning{color:#a15c00}.info{color:#555}</style>',
    '</head>',
    '<body>',
    `<h1>${escapeXml(countLine(errors))}</h1>`,
    `<p><code>${escapeXml(report.oldLocation)}</code> → <code>${escapeXml(report.newLocation)}</code>: ${escapeXml(othersLine(report))}.</p>`,
    report.changes.length === 0
      ? '<p>The new schema is compatible.</p>'
      : `<table>\n<thead><tr><th>Severity</th><th>Rule</th><th>Endpoint</th><th>Change</th><th>Old</th><th>New</th></tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/**
 * One test case per change, failed when its severity reaches `--fail-on`; one passing case when
 * there is no change, so a CI test view always shows the check ran.
 */
function junitReport(report: CompareReport): string {
  const failing = (change: ReportedChange) => severityRank(change.severity) >= severityRank(report.failOn);
  const failures = report.changes.filter(failing).length;
  const cases = report.changes.length === 0
    ? [`    <testcase classname="svc.compare" name="${escapeXml(`${report.newLocation} is compatible with ${report.oldLocation}`)}"/>`]
    : report.changes.map((change) => {
      const name = escapeXml(`${change.id} ${endpointOf(change)}`);
      const detail = escapeXml([change.description, change.oldValue && `Old: ${change.oldValue}`, change.newValue && `New: ${change.newValue}`].filter(Boolean).join('\n'));
      if (!failing(change)) return `    <testcase classname="svc.compare.${change.severity}" name="${name}">\n      <system-out>${detail}</system-out>\n    </testcase>`;
      return `    <testcase classname="svc.compare.${change.severity}" name="${name}">\n      <failure type="${escapeXml(change.id)}" message="${escapeXml(change.description)}">${detail}</failure>\n    </testcase>`;
    });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="svc compare" tests="${Math.max(report.changes.length, 1)}" failures="${failures}">`,
    `  <testsuite name="${escapeXml(`${report.oldLocation} → ${report.newLocation}`)}" tests="${Math.max(report.changes.length, 1)}" failures="${failures}" skipped="0" errors="0">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

const ANNOTATION_LEVEL: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice' };

/**
 * One annotation per change (`::error` / `::warning` / `::notice`), with the file and line where the
 * change can be found, then a plain count line for people reading the log (GitHub hides the
 * annotation lines from it).
 * https://docs.github.com/actions/reference/workflow-commands-for-github-actions
 */
function githubReport(report: CompareReport): string {
  const errors = report.changes.filter((change) => change.severity === 'error').length;
  if (report.changes.length === 0) {
    return `::notice title=${escapeProperty('svc compare')}::${escapeData(`No breaking changes: ${report.newLocation} is compatible with ${report.oldLocation}`)}\n${countLine(0)}\n`;
  }
  const lines = report.changes.map((change) => {
    const where = [change.file && `file=${escapeProperty(change.file)}`, change.file && change.line && `line=${change.line}`].filter(Boolean).join(',');
    const title = escapeProperty(`${change.severity === 'error' ? change.breakingType : change.id} ${endpointOf(change)}`);
    const context = [change.oldValue && `old: ${change.oldValue}`, change.newValue && `new: ${change.newValue}`].filter(Boolean).join('; ');
    const message = `${change.description}${context ? ` (${context})` : ''} [${change.id}]`;
    return `::${ANNOTATION_LEVEL[change.severity]} ${where ? `${where},` : ''}title=${title}::${escapeData(message)}`;
  });
  lines.push(`${countLine(errors)} (${othersLine(report)})`);
  return `${lines.join('\n')}\n`;
}

function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
