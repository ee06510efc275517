/**
 * What crosses between the server's main thread and the document-task threads: the one-off, CPU-heavy
 * work on whole documents (reading a registered text, comparing two versions, generating a fixture)
 * and on large recorded interactions, kept off the main thread so no call waits behind another
 * caller's large document or body. Documents travel
 * as JSON text (a string is copied as one block, an object graph node by node); a worker answers
 * failures as values because an Error's `code` does not survive the thread boundary.
 */
import type { BreakingChangeRecord } from './compare/breaking-change';
import type { ErrorCode } from './errors';
import type { RecordedEvidence, RecordedExchange } from './evidence/recorded-evidence';
import type { FixtureRequestSpec, GeneratedFixtureRecord, GeneratedResponseRecord } from './fixture-generator';
import type { SourceFormat } from './openapi/document';
import type { OperationSummary } from './openapi/operations';
import type { IntakeWarning, IntakeWarningCode } from './openapi/intake-warnings';
import type { SchemaText } from './schema-records';

/** A registered version's bundled document, by content hash (the worker keeps recent ones parsed). */
export interface TaskDocument {
  hash: string;
  documentJson: string;
}

export type DocumentTask =
  /** Parse, convert and check a schema text as RegisterSchema receives it. */
  | { kind: 'intake'; text: SchemaText }
  /** Breaking changes from one version to another. */
  | { kind: 'compare'; oldDocument: TaskDocument; newDocument: TaskDocument }
  /** A fixture, a response or a request body for one operation. */
  | { kind: 'fixture'; document: TaskDocument; spec: FixtureRequestSpec; output: 'fixture' | 'request' | 'response' }
  /** The operations of a version (ListEndpoints, RegisterConsumer): the main thread keeps this, not the parsed document. */
  | { kind: 'operations'; document: TaskDocument }
  /** The evidence of a recorded interaction with large bodies, redacted with the server's keys (SERVER_REDACTED_KEYS). */
  | { kind: 'observe'; exchange: RecordedExchange };

/** The checked document as intake produced it, with the document as JSON (as the registry stores it). */
export interface IntakeResult {
  /** SHA-256 (hex) of the text read (schemaContentHash). */
  contentHash: string;
  documentJson: string;
  openapiVersion: string;
  sourceFormat: SourceFormat;
  endpointCount: number;
  infoVersion: string | undefined;
  warnings: IntakeWarning[];
  warningCounts: Partial<Record<IntakeWarningCode, number>>;
}

export type DocumentTaskAnswer =
  | { kind: 'intake'; schema: IntakeResult }
  | { kind: 'compare'; changes: BreakingChangeRecord[] }
  | { kind: 'fixture'; fixture: GeneratedFixtureRecord }
  | { kind: 'request'; body: string }
  | { kind: 'response'; response: GeneratedResponseRecord }
  | { kind: 'operations'; operations: OperationSummary[] }
  | { kind: 'observe'; evidence: RecordedEvidence };

export type DocumentTaskResult =
  | ({ ok: true } & DocumentTaskAnswer)
  /** The engine's SvcError (INVALID_SCHEMA, LIMIT_EXCEEDED, ...), or INTERNAL for a bug. */
  | { ok: false; code: ErrorCode; message: string };
