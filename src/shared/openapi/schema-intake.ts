/**
 * The registry's intake of a schema text: `loadSchema`, then the document as the JSON the registry
 * stores and what was read leniently, in plain data that can cross a thread boundary (the server runs it on a
 * document-task thread; tools run it in-process).
 */
import type { IntakeResult } from '../document-task-protocol';
import { schemaContentHash } from '../schema-records';
import { loadSchema } from './load-document';

/**
 * The way intake reads a text into the engine document. Raise it with any change that makes intake
 * produce another document from the same text (test/unit/intake-revision.test.ts pins the documents
 * of this revision and fails until it is raised): versions stored with a lower one are read again
 * from their registered text when first used, so a version registered before an upgrade is
 * validated, compared and served as one registered after it.
 */
export const INTAKE_REVISION = 1;

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
