/**
 * The registry's intake of a schema text: `loadSchema`, then the document as the JSON the registry
 * stores and what was read leniently, in plain data that can cross a thread boundary (the server runs it on a
 * document-task thread; tools run it in-process).
 */
import type { IntakeResult } from '../document-task-protocol';
import { schemaContentHash } from '../schema-records';
import { loadSchema } from './load-document';

export async function intakeSchema(text: string | Uint8Array): Promise<IntakeResult> {
  const loaded = await loadSchema(text);
  return {
    contentHash: schemaContentHash(text),
    documentJson: JSON.stringify(loaded.document),
    openapiVersion: loaded.openapiVersion,
    sourceFormat: loaded.sourceFormat,
    endpointCount: loaded.endpointCount,
    infoVersion: loaded.infoVersion,
    warnings: loaded.warnings,
    warningCounts: loaded.warningCounts,
  };
}
