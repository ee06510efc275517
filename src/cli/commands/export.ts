import fs from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { Command, Option, UsageError } from 'clipanion';
import { ConfigError, resolveServerConfig } from '../../main/config';
import type { Storage, StorageKind } from '../../main/storage/storage';
import { CATEGORIES } from '../categories';
import { EXIT } from '../exit-codes';
import { SvcCommand } from '../svc-command';

export class ExportCommand extends SvcCommand {
  static override paths = [['export']];
  static override usage = Command.Usage({
    category: CATEGORIES.local,
    description: 'Write the whole registry (schemas, consumer registrations, environments, deployments) to a JSON lines file',
    details: `
      Reads the store directly (no server needed) and writes one header line, then one line per schema
      version (its registered text, hash, ownership and times), one per consumer registration, one per
      environment and one per entry of the deployment history (oldest first).
      \`svc import\` loads such a file into any store: this is the backup, the restore, and the way from
      SQLite to PostgreSQL. The store is chosen as for \`svc serve\`: --storage, --data-dir, --database-url
      or SVC_STORAGE, SVC_DATA_DIR, SVC_DATABASE_URL. The embedded store belongs to one process at a time:
      stop the server on that data folder first. Exit code 0: written; 1: the store could not be read.
    `,
    examples: [
      ['Back up the embedded store in ./data', '$0 export --output registry.jsonl'],
      ['Back up the shared PostgreSQL registry', '$0 export --storage postgres --database-url postgres://svc@db/svc -o registry.jsonl'],
    ],
  });

  output = Option.String('-o,--output', { description: 'Write to this file instead of stdout' });
  storage = Option.String('--storage', { description: 'Store to read: sqlite (default) or postgres' });
  dataDir = Option.String('--data-dir', { description: 'Folder of the SQLite database (default ./data)' });
  databaseUrl = Option.String('--database-url', { description: 'postgres:// URL (with --storage postgres)' });

  protected override async run(): Promise<number> {
    const storage = await openStoreFromOptions(this, this.context.env);
    const { exportRegistry } = await import('../../main/storage/registry-archive');
    const out: Writable = this.output === undefined ? this.context.stdout : fs.createWriteStream(this.output);
    const counts = { schema: 0, consumer: 0, environment: 0, deployment: 0 };
    try {
      for await (const line of exportRegistry(storage)) {
        const type = /^\{"type":"(\w+)"/.exec(line)?.[1];
        if (type !== undefined && type in counts) counts[type as keyof typeof counts]++;
        if (!out.write(line)) await once(out, 'drain');
      }
    } finally {
      await storage.close();
      if (out !== this.context.stdout) {
        out.end();
        await once(out, 'finish');
      }
    }
    this.context.stderr.write(`${this.commandName}: exported ${counts.schema} schema version(s), ${counts.consumer} consumer registration(s), `
      + `${counts.environment} environment(s) and ${counts.deployment} deployment record(s)\n`);
    return EXIT.ok;
  }
}

/**
 * The store named by --storage/--data-dir/--database-url or the SVC_* variables, as `svc serve` would
 * open it. The storage modules load here, so the other commands start without them.
 */
export async function openStoreFromOptions(
  options: { storage?: string; dataDir?: string; databaseUrl?: string },
  env: NodeJS.ProcessEnv,
): Promise<Storage> {
  try {
    const config = resolveServerConfig({
      storage: options.storage as StorageKind | undefined,
      dataDir: options.dataDir,
      databaseUrl: options.databaseUrl,
    }, env);
    if (config.storage === 'memory') throw new UsageError('--storage memory holds nothing outside a running server: use sqlite or postgres');
    const { openStorage } = await import('../../main/storage/open-storage');
    return openStorage(config.storage, config.dataDir, { databaseUrl: config.databaseUrl });
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}
