import type { Storage, StorageKind } from './storage';
import { MemoryStorage } from './memory-storage';
import { SqliteStorage } from './sqlite-storage';

/** Opens the configured backend. */
export function openStorage(kind: StorageKind, dataDir: string): Storage {
  switch (kind) {
    case 'memory':
      return new MemoryStorage();
    case 'sqlite':
      return new SqliteStorage(dataDir);
  }
}
