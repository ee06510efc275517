/**
 * The Piscina entry of the comparison threads: runs the breaking-change engine on two documents.
 * Pure CPU and nothing kept between tasks: the main thread caches results by the pair of content
 * hashes, so the same pair never comes here twice while its answer is cached.
 */
import { compareDocuments } from '../shared/compare';
import type { CompareTask, CompareTaskResult } from '../shared/compare/compare-task-protocol';
import { ErrorCode, SvcError, errorMessage } from '../shared/errors';
import type { OpenApiDocument } from '../shared/openapi/document';

export default function runCompareTask({ oldDocumentJson, newDocumentJson }: CompareTask): CompareTaskResult {
  try {
    // Both texts are documents the registry accepted and serialised itself: no depth guard needed.
    const oldDocument = JSON.parse(oldDocumentJson) as OpenApiDocument;
    const newDocument = JSON.parse(newDocumentJson) as OpenApiDocument;
    return { ok: true, changes: compareDocuments(oldDocument, newDocument) };
  } catch (error) {
    if (error instanceof SvcError) return { ok: false, code: error.code, message: error.message };
    return { ok: false, code: ErrorCode.INTERNAL, message: `comparison failed: ${errorMessage(error)}` };
  }
}
