/**
 * Prints the fixture invariant's pass rate per corpus document, and every failure:
 *   npx tsc -p tsconfig.json && node dist/test/helpers/fixture-pass-rate.js [--json] [document ...]
 * A fixture passes when the validation engine accepts it against the document it came from.
 * Documents named on the command line (any path, such as the GitHub REST API description under
 * .cache/corpora) are checked after the corpus.
 */
import path from 'node:path';
import { checkDocument, corpusDocuments, ratesByDocument, type OperationOutcome } from './fixture-corpus';

async function main(): Promise<void> {
  const extra = process.argv.slice(2).filter((arg) => !arg.startsWith('--')).map((file) => path.resolve(file));
  const outcomes: OperationOutcome[] = [];
  for (const document of [...corpusDocuments(), ...extra]) outcomes.push(...(await checkDocument(document)));
  const rates = ratesByDocument(outcomes);
  const failures = outcomes.filter((o) => o.kind === 'invalid' || o.kind === 'refused');

  if (process.argv.includes('--json')) {
    process.stdout.write(`${JSON.stringify({ rates, failures }, null, 2)}\n`);
    return;
  }
  const width = Math.max(...rates.map((r) => r.document.length));
  process.stdout.write(`${'document'.padEnd(width)}  fixtures  valid   rate  non-JSON (outside)\n`);
  for (const rate of rates) {
    const percent = rate.covered === 0 ? '   -' : `${((100 * rate.valid) / rate.covered).toFixed(1)}%`;
    process.stdout.write(
      `${rate.document.padEnd(width)}  ${String(rate.covered).padStart(8)}  ${String(rate.valid).padStart(5)}  ${percent.padStart(6)}  ${rate.notJson}\n`,
    );
  }
  const covered = rates.reduce((sum, r) => sum + r.covered, 0);
  const valid = rates.reduce((sum, r) => sum + r.valid, 0);
  process.stdout.write(`\nall: ${valid}/${covered} fixtures valid (${((100 * valid) / covered).toFixed(2)}%)\n`);
  for (const failure of failures) {
    const mode = failure.useExamples ? 'examples' : 'generated';
    process.stdout.write(`\n${failure.kind}: ${failure.document} ${failure.method} ${failure.path} (${mode})\n`);
    for (const error of failure.errors.slice(0, 5)) process.stdout.write(`  ${error}\n`);
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  });
}
