import { Command, Option } from 'clipanion';
import type { ImportCounts } from '../../main/storage/registry-archive';
import { CATEGORIES } from '../categories';
import { EXIT } from '../exit-codes';
import { openReadStream } from '../input-files';
import { SvcCommand } from '../svc-command';
import { openStoreFromOptions } from './export';

export class ImportCommand extends SvcCommand {
  static override paths = [['import']];
  static override usage = Command.Usage({
    category: CATEGORIES.local,
    description: 'Load a registry file written by `svc export` into a store (idempotent)',
    details: `
      Writes every schema version, consumer registration, environment and deployment-history entry of
      the file into the store (chosen as for
      \`svc serve\`: --storage, --data-dir, --database-url or SVC_STORAGE, SVC_DATA_DIR, SVC_DATABASE_URL).
      What is already stored as in the file is left alone, so importing twice changes nothing; a
      deployment history is appended to only where the store's is the start of the file's. Each
      schema's hash is checked against its text, and the text goes through the same checks as a
      registration. A read-only version stored with other content is not replaced. Running replicas
      on PostgreSQL see imported schemas within a second; import into SQLite while its server is stopped.
      Exit code 0: everything imported; 1: some lines were not (each is named on stderr).
    `,
    examples: [
      ['Move the embedded registry to PostgreSQL', '$0 export -o registry.jsonl && $0 import registry.jsonl --storage postgres --database-url postgres://svc@db/svc'],
      ['Restore from standard input', '$0 import - < registry.jsonl'],
    ],
  });

  file = Option.String({ required: false, name: 'file' });
  storage = Option.String('--storage', { description: 'Store to write: sqlite (default) or postgres' });
  dataDir = Option.String('--data-dir', { description: 'Folder of the SQLite database (default ./data)' });
  databaseUrl = Option.String('--database-url', { description: 'postgres:// URL (with --storage postgres)' });

  protected override async run(): Promise<number> {
    // The file first: one that is not there fails before the store is opened (or created).
    const input = this.file === undefined || this.file === '-' ? this.context.stdin : await openReadStream(this.file, 'archive file');
    const storage = await openStoreFromOptions(this, this.context.env);
    const { importRegistry } = await import('../../main/storage/registry-archive');
    let report;
    try {
      report = await importRegistry(storage, input);
    } finally {
      await storage.close();
    }
    this.print(`imported schema versions: ${counts(report.schemas)}; consumer registrations: ${counts(report.consumers)}; `
      + `environments: ${counts(report.environments)}; deployment records: ${report.deployments.created} appended, ${report.deployments.unchanged} unchanged`);
    for (const problem of report.problems) this.printError(problem);
    if (report.problemCount > report.problems.length) this.printError(`and ${report.problemCount - report.problems.length} more line(s) not imported`);
    return report.problemCount === 0 ? EXIT.ok : EXIT.failure;
  }
}

function counts(c: ImportCounts): string {
  return `${c.created} created, ${c.updated} updated, ${c.unchanged} unchanged`;
}
