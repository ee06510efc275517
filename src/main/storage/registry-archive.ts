/**
 * The portable form of a whole registry (backup, restore, moving between stores): JSON lines, one
 * header, then one line per schema version (registered text and metadata), per consumer
 * registration, per environment and per deployment-history entry (oldest first), and an end line
 * that counts them and holds the SHA-256 of every line before it. The engine document is not
 * exported: import derives it from the text again, with the importing svc's own intake, so an
 * archive never carries a document that intake would refuse. Importing is registry-import.ts.
 */
import { createHash, type Hash } from 'node:crypto';
import { schemaContentHash, type SchemaOwnershipRecord } from '../../shared/schema-records';
import type { ConsumerRecord, DeploymentRecord, EnvironmentRecord, SchemaVersionRecord, Storage } from './storage';

export const ARCHIVE_FORMAT = 'svc-registry';
/**
 * 2 added environments and the deployment history; 3 an end line counting the lines before it, so
 * an archive cut at a line's end is told from a whole one; 4 the SHA-256 of those lines in the end
 * line, so an edit or damage anywhere is told (the schemas' contentHash covers their text only).
 * Archives of versions 1 to 3 still import.
 */
export const ARCHIVE_FORMAT_VERSION = 4;
export const READABLE_FORMAT_VERSIONS: readonly number[] = [1, 2, 3, 4];
/** The first format version whose archives hold environments and the deployment history. */
export const ENVIRONMENTS_FROM_VERSION = 2;
/** The first format version whose archives end with an end line. */
export const END_LINE_FROM_VERSION = 3;
/** The first format version whose end line holds the SHA-256 of the lines before it. */
export const DIGEST_FROM_VERSION = 4;
export const LINE_TYPES = ['schema', 'consumer', 'environment', 'deployment'] as const;
export type LineType = (typeof LINE_TYPES)[number];
/** Deployment-history entries read from a store at once: every one (histories are short, and complete or useless). */
export const WHOLE_HISTORY = Number.MAX_SAFE_INTEGER;

export interface ArchiveHeader {
  type: 'header';
  format: typeof ARCHIVE_FORMAT;
  formatVersion: number;
  exportedAt: string;
}

/** The last line: how many lines of each type come before it, and (from format version 4) their SHA-256. */
export interface ArchiveEnd {
  type: 'end';
  lines: Record<LineType, number>;
  /** Hex SHA-256 of every line before the end line, header included, each with its newline (see archiveDigest). */
  sha256?: string;
}

export type ArchivedSchemaVersion = { type: 'schema' } & Omit<SchemaVersionRecord, 'documentJson'>;
export type ArchivedConsumer = { type: 'consumer' } & ConsumerRecord;
export type ArchivedEnvironment = { type: 'environment' } & EnvironmentRecord;
export type ArchivedDeployment = { type: 'deployment' } & DeploymentRecord;

/**
 * The digest an end line holds. Lines are hashed as they read, without their line break, each
 * followed by "\n": an archive whose line ends were turned into CRLF still matches.
 */
export function archiveDigest(): { add: (lineText: string) => void; hex: () => string } {
  const hash: Hash = createHash('sha256');
  return { add: (lineText) => { hash.update(lineText, 'utf8').update('\n'); }, hex: () => hash.digest('hex') };
}

/** The archive's lines, each ending in a newline; schemas are read one at a time. */
export async function* exportRegistry(storage: Storage, now: () => Date = () => new Date()): AsyncGenerator<string> {
  const digest = archiveDigest();
  const header: ArchiveHeader = { type: 'header', format: ARCHIVE_FORMAT, formatVersion: ARCHIVE_FORMAT_VERSION, exportedAt: now().toISOString() };
  const headerText = JSON.stringify(header);
  digest.add(headerText);
  yield `${headerText}\n`;
  const end: ArchiveEnd = { type: 'end', lines: { schema: 0, consumer: 0, environment: 0, deployment: 0 } };
  for await (const line of registryLines(storage)) {
    end.lines[line.type]++;
    const text = JSON.stringify(line);
    digest.add(text);
    yield `${text}\n`;
  }
  end.sha256 = digest.hex();
  yield `${JSON.stringify(end)}\n`;
}

export type ArchiveLine = ArchivedSchemaVersion | ArchivedConsumer | ArchivedEnvironment | ArchivedDeployment;

/** The registry's lines between the header and the end line, schemas read one at a time. */
async function* registryLines(storage: Storage): AsyncGenerator<ArchiveLine> {
  const index = (await storage.loadSchemaIndex()).sort((a, b) => compareText(a.schemaId, b.schemaId) || compareText(a.version, b.version));
  for (const summary of index) {
    const record = await storage.getSchemaVersion(summary.schemaId, summary.version);
    if (!record) continue;
    const { documentJson: _documentJson, ...archived } = record;
    yield { type: 'schema', ...archived };
  }
  for (const consumer of await storage.listConsumers({})) yield { type: 'consumer', ...consumer };
  for (const environment of await storage.listEnvironments()) yield { type: 'environment', ...environment };
  // Oldest first: import appends in file order, and the order of a history decides what is deployed now.
  for (const deployment of (await storage.listDeployments({}, WHOLE_HISTORY)).reverse()) yield { type: 'deployment', ...deployment };
}

export function checkHeaderLine(line: Record<string, unknown>): ArchiveHeader {
  const header = line as unknown as ArchiveHeader;
  if (header.format !== ARCHIVE_FORMAT || !READABLE_FORMAT_VERSIONS.includes(header.formatVersion)) {
    throw new Error(`not an ${ARCHIVE_FORMAT} archive of format version ${READABLE_FORMAT_VERSIONS.join(' or ')} (got ${String(header.format)} ${String(header.formatVersion)})`);
  }
  return header;
}

export function checkEndLine(line: Record<string, unknown>, formatVersion: number): ArchiveEnd {
  const lines = line.lines;
  if (typeof lines !== 'object' || lines === null || !LINE_TYPES.every((type) => Number.isInteger((lines as Record<string, unknown>)[type]))) {
    throw new Error(`an end line must count its ${LINE_TYPES.join(', ')} lines`);
  }
  if (formatVersion >= DIGEST_FROM_VERSION && !(typeof line.sha256 === 'string' && /^[0-9a-f]{64}$/.test(line.sha256))) {
    throw new Error(`an end line of format version ${formatVersion} must hold the sha256 (64 hex digits) of the lines before it`);
  }
  return line as unknown as ArchiveEnd;
}

export function checkSchemaLine(line: Record<string, unknown>): ArchivedSchemaVersion {
  for (const field of ['schemaId', 'version', 'content', 'contentHash', 'openapiVersion'] as const) requireString(line, field);
  for (const field of ['endpointCount', 'registeredAt', 'updatedAt'] as const) requireNumber(line, field);
  const ownership = line.ownership as Partial<SchemaOwnershipRecord> | undefined;
  if (typeof ownership !== 'object' || ownership === null || typeof ownership.owner !== 'string' || typeof ownership.team !== 'string'
    || typeof ownership.contactEmail !== 'string' || typeof ownership.readOnly !== 'boolean') {
    throw new Error('schema line: ownership must be {owner, team, contactEmail, readOnly}');
  }
  const schema = line as unknown as ArchivedSchemaVersion;
  if (schemaContentHash(schema.content) !== schema.contentHash) {
    throw new Error(`schema ${schema.schemaId} version ${schema.version}: the content does not match its contentHash (the archive was altered or damaged)`);
  }
  return schema;
}

export function checkConsumerLine(line: Record<string, unknown>): ArchivedConsumer {
  for (const field of ['consumerId', 'consumerVersion', 'schemaId', 'schemaVersion', 'environment'] as const) requireString(line, field);
  for (const field of ['registeredAt', 'lastValidatedAt'] as const) requireNumber(line, field);
  const endpoints = line.usedEndpoints;
  if (!Array.isArray(endpoints) || !endpoints.every((e: { method?: unknown; path?: unknown; usedFields?: unknown }) =>
    typeof e?.method === 'string' && typeof e.path === 'string' && Array.isArray(e.usedFields) && e.usedFields.every((f) => typeof f === 'string'))) {
    throw new Error('consumer line: usedEndpoints must be a list of {method, path, usedFields}');
  }
  return line as unknown as ArchivedConsumer;
}

export function checkEnvironmentLine(line: Record<string, unknown>): ArchivedEnvironment {
  for (const field of ['name', 'description', 'origin', 'createdBy'] as const) requireString(line, field);
  requireNumber(line, 'createdAt');
  return line as unknown as ArchivedEnvironment;
}

export function checkDeploymentLine(line: Record<string, unknown>): ArchivedDeployment {
  for (const field of ['schemaId', 'environment', 'consumerId', 'version', 'schemaVersion', 'recordedBy'] as const) requireString(line, field);
  requireNumber(line, 'recordedAt');
  if (line.action !== 'deployed' && line.action !== 'undeployed') throw new Error('deployment line: action must be "deployed" or "undeployed"');
  return line as unknown as ArchivedDeployment;
}

function requireString(line: Record<string, unknown>, field: string): void {
  if (typeof line[field] !== 'string') throw new Error(`${String(line.type)} line: ${field} must be a string`);
}

function requireNumber(line: Record<string, unknown>, field: string): void {
  if (!Number.isSafeInteger(line[field])) throw new Error(`${String(line.type)} line: ${field} must be an integer (Unix seconds or a count)`);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
