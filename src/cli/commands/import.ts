import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Command, Option } from 'clipanion';
import type { ImportCounts } from '../../main/storage/registry-import';
import { CATEGORIES } from '../categories';
import { EXIT } from '../exit-codes';
import { openReadStream } from '../input-files';
import { SvcCommand } from '../svc-command';
import { openStoreFromOptions } from './export';

export class ImportCommand extends SvcCommand {
  static override paths = [['import']];
  static override usage = Command.Usage({
    category: CATEGORIES.local,
    description: 'Load a registry file written by `svc export` into a store (all or nothing, idempotent)',
    details: `
      Writes every schema version, consumer registration, environment and deployment-history entry of
      the file into the store (chosen as for
      \`svc serve\`: --storage, --data-dir, --database-url or SVC_STORAGE, SVC_DATA_DIR, SVC_DATABASE_URL).
      The whole file is checked first and nothing is written unless all of it can be: the SHA-256 of its
      lines in its end line (so an edited or damaged file is refused), each schema's hash against its text
      and the text through the same checks as a registration, and every consumer registration and
      deployment naming a schema version and an environment that the file or the store holds.
      What is already stored as in the file is left alone, so importing twice changes nothing; a
      deployment history is continued only where the store's is the start of the file's. A read-only
      version stored with other content or ownership is not replaced, nor, with --immutable-versions
      (SVC_IMMUTABLE_VERSIONS) as the server is started with, a version stored with other content.
      Running replicas on PostgreSQL see imported schemas within a second; import into SQLite while its
      server is stopped.
      Exit code 0: everything imported; 1: nothing imported (each problem is named on stderr).
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
  immutableVersions = Option.Boolean('--immutable-versions', { description: 'Refuse other content for a version the store holds, as the server does with this option' });

  protected override async run(): Promise<number> {
    const fromStdin = this.file === undefined || this.file === '-';
    // The file first: one that is not there fails before the store is opened (or created).
    const source = fromStdin ? this.context.stdin : await openReadStream(this.file!, 'archive file');
    if (!fromStdin && (await fs.promises.stat(this.file!)).isFile()) {
      source.destroy();
      return this.#import(() => openReadStream(this.file!, 'archive file'));
    }
    // Import reads the archive twice (to check, then to write): standard input, or a pipe named as a
    // file (/dev/stdin, <(…)), is kept in a file meanwhile.
    const spool = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'svc-import-'));
    try {
      const file = path.join(spool, 'archive.jsonl');
      await pipeline(source, fs.createWriteStream(file));
      return await this.#import(() => openReadStream(file, 'archive file'));
    } finally {
      await fs.promises.rm(spool, { recursive: true, force: true });
    }
  }

  async #import(openArchive: () => Promise<fs.ReadStream>): Promise<number> {
    const { storage, config } = await openStoreFromOptions(this, this.context.env);
    const { importRegistry } = await import('../../main/storage/registry-import');
    let report;
    try {
      report = await importRegistry(storage, openArchive, { immutableVersions: config.immutableVersions });
    } finally {
      await storage.close();
    }
    if (report.problemCount > 0) {
      for (const problem of report.problems) this.printError(problem);
      if (report.problemCount > report.problems.length) this.printError(`and ${report.problemCount - report.problems.length} more problem(s)`);
      this.printError(`nothing imported: ${report.problemCount} problem(s) in the archive`);
      return EXIT.failure;
    }
    this.print(`imported schema versions: ${counts(report.schemas)}; consumer registrations: ${counts(report.consumers)}; `
      + `environments: ${counts(report.environments)}; deployment records: ${report.deployments.created} appended, ${report.deployments.unchanged} unchanged`);
    return EXIT.ok;
  }
}

function counts(c: ImportCounts): string {
  return `${c.created} created, ${c.updated} updated, ${c.unchanged} unchanged`;
}
