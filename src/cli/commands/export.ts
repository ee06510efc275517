import fs from 'node:fs';
import path from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Command, Option, UsageError } from 'clipanion';
import { ConfigError, resolveServerConfig, type ServerConfig } from '../../main/config';
import type { Storage, StorageKind } from '../../main/storage/storage';
import { CATEGORIES } from '../categories';
import { EXIT } from '../exit-codes';
import { openWriteStream } from '../input-files';
import { UNANSWERED_CODES, UnansweredError } from '../unanswered';
import { SvcCommand } from '../svc-command';

export class ExportCommand extends SvcCommand {
  static override paths = [['export']];
  static override usage = Command.Usage({
    category: CATEGORIES.local,
    description: 'Write the whole registry (schemas, consumer registrations, environments, deployments) to a JSON lines file',
    details: `
      Reads the store directly (no server needed) and writes one header line, then one line per schema
      version (its registered text, hash, ownership and times), one per consumer registration, one per
      environment and one per entry of the deployment history (oldest first), and an end line that
      counts them and holds their SHA-256 (so \`svc import\` refuses a file cut short, damaged or edited).
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
    // The file first: a folder that is not there fails before the store is opened.
    const file = this.output === undefined ? undefined : await openWriteStream(this.output, 'archive file');
    const out: Writable = file ?? this.context.stdout;
    // A store that is not there is a mistake (a wrong --data-dir), never an empty registry to back up.
    const { storage } = await openStoreFromOptions(this, this.context.env, { existing: true });
    const { exportRegistry } = await import('../../main/storage/registry-archive');
    const counts = { schema: 0, consumer: 0, environment: 0, deployment: 0 };
    const lines = async function* () {
      for await (const line of exportRegistry(storage)) {
        const type = /^\{"type":"(\w+)"/.exec(line)?.[1];
        if (type !== undefined && type in counts) counts[type as keyof typeof counts]++;
        yield line;
      }
    };
    try {
      // A write that fails (a full disk) rejects here, named, instead of an unhandled 'error' event.
      await pipeline(Readable.from(lines()), out, { end: file !== undefined });
    } catch (error) {
      if (file === undefined || !(error as NodeJS.ErrnoException).code) throw error;
      throw new Error(`cannot write archive file "${this.output}": ${(error as Error).message}`, { cause: error });
    } finally {
      await storage.close();
    }
    this.context.stderr.write(`${this.commandName}: exported ${counts.schema} schema version(s), ${counts.consumer} consumer registration(s), `
      + `${counts.environment} environment(s) and ${counts.deployment} deployment record(s)\n`);
    return EXIT.ok;
  }
}

/**
 * The store named by --storage/--data-dir/--database-url or the SVC_* variables, as `svc serve` would
 * open it, and the settings `svc serve` would run it with. The storage modules load here, so the
 * other commands start without them.
 */
export async function openStoreFromOptions(
  options: { storage?: string; dataDir?: string; databaseUrl?: string; immutableVersions?: boolean },
  env: NodeJS.ProcessEnv,
  { existing = false }: { existing?: boolean } = {},
): Promise<{ storage: Storage; config: ServerConfig }> {
  try {
    const config = resolveServerConfig({
      storage: options.storage as StorageKind | undefined,
      dataDir: options.dataDir,
      databaseUrl: options.databaseUrl,
      immutableVersions: options.immutableVersions,
    }, env);
    if (config.storage === 'memory') throw new UsageError('--storage memory holds nothing outside a running server: use sqlite or postgres');
    const { openStorage } = await import('../../main/storage/open-storage');
    if (existing && config.storage === 'sqlite') {
      const { SQLITE_FILE_NAME } = await import('../../main/storage/sqlite-storage');
      const file = path.join(config.dataDir, SQLITE_FILE_NAME);
      if (!fs.existsSync(file)) {
        throw new UnansweredError(UNANSWERED_CODES.unreadable, `no registry in "${config.dataDir}": ${SQLITE_FILE_NAME} is not there (give the data folder of the server with --data-dir)`);
      }
    }
    return { storage: await openStorage(config.storage, config.dataDir, { databaseUrl: config.databaseUrl }), config };
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}
