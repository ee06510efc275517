/** The results table printed at the end of a bench run: one line per figure, ratio and goal beside it. */
import type { BenchRow, SuiteResult } from './harness';

const HEADERS = ['suite', 'measure', 'value', 'baseline', 'ratio', 'goal'];

export function formatTable(results: readonly SuiteResult[]): string {
  const lines = results.flatMap((result) => result.rows.map((row) => cells(result.suite, row)));
  const widths = HEADERS.map((header, column) => Math.max(header.length, ...lines.map((line) => line[column]!.length)));
  const render = (line: readonly string[]) => line.map((cell, column) => (column >= 2 && column <= 4 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!))).join('  ').trimEnd();
  return [render(HEADERS), widths.map((width) => '-'.repeat(width)).join('  '), ...lines.map(render)].join('\n');
}

function cells(suite: string, row: BenchRow): string[] {
  return [
    suite,
    row.name,
    `${formatNumber(row.value)} ${row.unit}`,
    row.baseline ? `${formatNumber(row.baseline.value)} (${row.baseline.name})` : '',
    row.ratio === undefined ? '' : `${row.ratio.toFixed(2)}×`,
    row.goal ? `${row.goal.text} ${row.goal.met ? 'met' : 'MISSED'}` : '',
  ];
}

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) >= 100) return Math.round(value).toLocaleString('en-US');
  return value.toFixed(value >= 10 ? 1 : 2);
}
