/**
 * The Piscina entry of the document-task threads: reading a registered text (intake), comparing two
 * versions, generating fixtures, describing large recorded interactions. Pure CPU; it keeps only recently parsed documents, keyed by their
 * immutable content hash, so a burst of fixtures for one schema parses it once.
 */
import type { DocumentTask, DocumentTaskResult, TaskDocument } from '../shared/document-task-protocol';
import { ErrorCode, SvcError, errorMessage } from '../shared/errors';
import { describeRecordedExchange } from '../shared/evidence/recorded-evidence';
import { SERVER_REDACTED_KEYS } from '../shared/evidence/redaction';
import { LIMITS, formatBytes } from '../shared/limits';
import { LruCache } from '../shared/lru-cache';
import type { OpenApiDocument } from '../shared/openapi/document';

/**
 * The engines load with the first task, not with the thread: a thread that is ready at once is one
 * Piscina can fail a task cleanly on if it dies (a thread that dies while still starting leaves its
 * task waiting), and an idle pool restarts cheaply.
 */
async function engines() {
  const [compare, fixtures, intake, operations] = await Promise.all([
    import('../shared/compare'),
    import('../shared/fixture-generator'),
    import('../shared/openapi/schema-intake'),
    import('../shared/openapi/operations'),
  ]);
  return {
    compareDocuments: compare.compareDocuments,
    generateFixture: fixtures.generateFixture,
    generateRequestBody: fixtures.generateRequestBody,
    generateResponse: fixtures.generateResponse,
    intakeSchema: intake.intakeSchema,
    summarizeOperations: operations.summarizeOperations,
  };
}

/** Documents kept parsed at most (their JSON size bounds them first: documentTaskParsedBytes). */
const MAX_PARSED_DOCUMENTS = 256;
/** Parsed documents by content hash, weighed by their JSON size. */
const parsed = new LruCache<string, { document: OpenApiDocument; bytes: number }>(MAX_PARSED_DOCUMENTS, {
  maxWeight: LIMITS.documentTaskParsedBytes,
  weigh: (entry) => entry.bytes,
});

export default async function runDocumentTask(task: DocumentTask): Promise<DocumentTaskResult> {
  try {
    // Needs none of the engines: a thread that only describes recorded interactions never loads them.
    if (task.kind === 'observe') return { ok: true, kind: 'observe', evidence: describeRecordedExchange(task.exchange, SERVER_REDACTED_KEYS) };
    const { compareDocuments, generateFixture, generateRequestBody, generateResponse, intakeSchema, summarizeOperations } = await engines();
    switch (task.kind) {
      case 'intake':
        return { ok: true, kind: 'intake', schema: await intakeSchema(task.text) };
      case 'operations':
        // A one-off per version (the registry keeps the answer): parsed without filling the cache.
        return { ok: true, kind: 'operations', operations: summarizeOperations(parsed.get(task.document.hash)?.document ?? JSON.parse(task.document.documentJson)) };
      case 'compare':
        return { ok: true, kind: 'compare', changes: compareDocuments(documentOf(task.oldDocument), documentOf(task.newDocument)) };
      case 'fixture': {
        const document = documentOf(task.document);
        if (task.output === 'request') return { ok: true, kind: 'request', body: withinFixtureLimit(generateRequestBody(document, task.spec)) };
        if (task.output === 'response') {
          const response = generateResponse(document, task.spec);
          withinFixtureLimit(response.body);
          return { ok: true, kind: 'response', response };
        }
        const fixture = generateFixture(document, task.spec);
        withinFixtureLimit(fixture.request.body);
        withinFixtureLimit(fixture.response.body);
        return { ok: true, kind: 'fixture', fixture };
      }
    }
  } catch (error) {
    if (error instanceof SvcError) return { ok: false, code: error.code, message: error.message };
    return { ok: false, code: ErrorCode.INTERNAL, message: `${task.kind} failed: ${errorMessage(error)}` };
  }
}

/** A generated body over fixtureMaxBodyBytes is refused here, before it crosses to the main thread. */
function withinFixtureLimit(body: string): string {
  if (body.length > LIMITS.fixtureMaxBodyBytes) {
    throw new SvcError(
      ErrorCode.LIMIT_EXCEEDED,
      `the generated body would be ${formatBytes(body.length)} or more, over the limit of ${formatBytes(LIMITS.fixtureMaxBodyBytes)} (fixtureMaxBodyBytes): the schema asks for values too large to be a useful fixture (minItems, minLength, minProperties)`,
    );
  }
  return body;
}

function documentOf({ hash, documentJson }: TaskDocument): OpenApiDocument {
  const cached = parsed.get(hash);
  if (cached) return cached.document;
  // Texts the registry accepted and serialised itself: no depth guard needed.
  const document = JSON.parse(documentJson) as OpenApiDocument;
  parsed.set(hash, { document, bytes: documentJson.length });
  return document;
}
