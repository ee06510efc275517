/** Plain aligned columns for list output: a header row, then one row per item; no borders, no colour. */

/** Column widths fit the widest cell; the last column is not padded (no trailing spaces). */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, column) => (column === cells.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ').trimEnd();
  return `${[line(header), ...rows.map(line)].join('\n')}\n`;
}

/** A Unix timestamp in seconds as ISO 8601 (UTC); '' for 0 (never). */
export function isoTime(seconds: number): string {
  return seconds > 0 ? new Date(seconds * 1000).toISOString().replace('.000Z', 'Z') : '';
}
