/** Stores and archives built in code, for the tests of `svc export` / `svc import` (registry-archive.ts, registry-import.ts). */
import { loadSchema } from '../../src/shared/openapi/load-document';
import { INTAKE_REVISION } from '../../src/shared/openapi/schema-intake';
import { schemaContentHash, type SchemaOwnershipRecord } from '../../src/shared/schema-records';
import { exportRegistry } from '../../src/main/storage/registry-archive';
import type { Storage } from '../../src/main/storage/storage';
import { minimalDocument } from './documents';

const NO_OWNER: SchemaOwnershipRecord = { owner: '', team: '', contactEmail: '', readOnly: false };

/** Writes a version of a minimal document straight into the store (`title` varies its content). */
export async function storeSchemaVersion(
  storage: Storage,
  schemaId: string,
  version: string,
  { title = 'Minimal', ownership = NO_OWNER }: { title?: string; ownership?: SchemaOwnershipRecord } = {},
): Promise<void> {
  const content = minimalDocument(version, {}, title);
  const loaded = await loadSchema(content);
  const saved = await storage.saveSchemaVersion({
    schemaId, version, content, contentHash: schemaContentHash(content), documentJson: JSON.stringify(loaded.document),
    openapiVersion: '3.0.3', endpointCount: 1, ownership: { ...ownership }, registeredAt: 1, updatedAt: 1, intakeRevision: INTAKE_REVISION,
  }, null);
  if (!saved.saved) throw new Error(`${schemaId} ${version} was stored already`);
}

/** The whole archive of a store, as `svc export` writes it. */
export async function archiveOf(storage: Storage): Promise<string> {
  let text = '';
  for await (const line of exportRegistry(storage)) text += line;
  return text;
}
