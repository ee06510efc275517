/** The one place that turns the configured storage kind into a store. */
import type { Logger } from '../logger';
import type { Metrics } from '../metrics';
import type { Storage, StorageKind } from './storage';
import { MemoryStorage } from './memory-storage';
import { SqliteThreadStorage } from './sqlite-thread-storage';
import { PostgresStorage } from './postgres/postgres-storage';

export interface OpenStorageOptions {
  /** Required for `postgres` (checked by the server configuration). */
  databaseUrl?: string;
  logger?: Logger;
  /** Where `svc_storage_up` is exported. */
  metrics?: Metrics;
}

/**
 * Opens the configured backend. SQLite opens on its own thread, and PostgreSQL connects and
 * migrates on first use: the start-up errors of both surface at the first call (the registry's
 * index load at start).
 */
export function openStorage(kind: StorageKind, dataDir: string, options: OpenStorageOptions = {}): Storage {
  const storageUp = options.metrics?.storageUp;
  switch (kind) {
    case 'memory':
      storageUp?.set(1);
      return new MemoryStorage();
    case 'sqlite':
      storageUp?.set(1);
      return new SqliteThreadStorage(dataDir, options.logger);
    case 'postgres':
      if (!options.databaseUrl) throw new Error('postgres storage needs a database URL (--database-url or SVC_DATABASE_URL)');
      return new PostgresStorage({
        databaseUrl: options.databaseUrl,
        logger: options.logger,
        reportUp: storageUp && ((up) => storageUp.set(up ? 1 : 0)),
      });
  }
}
