/**
 * The portable form of a whole registry (backup, restore, moving between stores): JSON lines, one
 * header, then one line per schema version (registered text and metadata), per consumer
 * registration, per environment and per deployment-history entry (oldest first). The engine
 * document is not exported: import derives it from the text again, with the importing svc's own
 * intake, so an archive never carries a document that intake would refuse.
 * Import is idempotent: a version, registration or environment already stored as in the archive is
 * left alone, and a deployment history is appended to only where the store's is the start of the
 * archive's (history decides what is deployed now, so entries are never merged out of order).
 */
import readline from 'node:readline';
import type { Readable } from 'node:stream';
import { errorMessage } from '../../shared/errors';
import { loadSchema } from '../../shared/openapi/load-document';
import { schemaContentHash, type SchemaOwnershipRecord } from '../../shared/schema-records';
import type {
  ConsumerRecord, DeploymentRecord, EnvironmentRecord, SchemaVersionRecord, SchemaVersionSummary, Storage,
} from './storage';

export const ARCHIVE_FORMAT = 'svc-registry';
/**
 * 2 added environments and the deployment history; 3 an end line counting the lines before it, so
 * an archive cut at a line's end is told from a whole one. Archives of versions 1 and 2 still import.
 */
export const ARCHIVE_FORMAT_VERSION = 3;
const READABLE_FORMAT_VERSIONS: readonly number[] = [1, 2, 3];
/** The first format version whose archives end with an end line. */
const END_LINE_FROM_VERSION = 3;
const LINE_TYPES = ['schema', 'consumer', 'environment', 'deployment'] as const;
type LineType = (typeof LINE_TYPES)[number];
/** Deployment-history entries read from a store at once: every one (histories are short, and complete or useless). */
const WHOLE_HISTORY = Number.MAX_SAFE_INTEGER;
/** Problems named in an import report; the rest are counted. */
const MAX_REPORTED_PROBLEMS = 20;

export interface ArchiveHeader {
  type: 'header';
  format: typeof ARCHIVE_FORMAT;
  formatVersion: number;
  exportedAt: string;
}

/** The last line: how many lines of each type come before it. */
export interface ArchiveEnd {
  type: 'end';
  lines: Record<LineType, number>;
}

export type ArchivedSchemaVersion = { type: 'schema' } & Omit<SchemaVersionRecord, 'documentJson'>;
export type ArchivedConsumer = { type: 'consumer' } & ConsumerRecord;
export type ArchivedEnvironment = { type: 'environment' } & EnvironmentRecord;
export type ArchivedDeployment = { type: 'deployment' } & DeploymentRecord;

/** The archive's lines, each ending in a newline; schemas are read one at a time. */
export async function* exportRegistry(storage: Storage, now: () => Date = () => new Date()): AsyncGenerator<string> {
  const header: ArchiveHeader = { type: 'header', format: ARCHIVE_FORMAT, formatVersion: ARCHIVE_FORMAT_VERSION, exportedAt: now().toISOString() };
  yield `${JSON.stringify(header)}\n`;
  const end: ArchiveEnd = { type: 'end', lines: { schema: 0, consumer: 0, environment: 0, deployment: 0 } };
  for await (const line of registryLines(storage)) {
    end.lines[line.type]++;
    yield `${JSON.stringify(line)}\n`;
  }
  yield `${JSON.stringify(end)}\n`;
}

type ArchiveLine = ArchivedSchemaVersion | ArchivedConsumer | ArchivedEnvironment | ArchivedDeployment;

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

export interface ImportCounts {
  created: number;
  updated: number;
  unchanged: number;
}

export interface ImportReport {
  schemas: ImportCounts;
  consumers: ImportCounts;
  environments: ImportCounts;
  /** Entries of the deployment history (`updated` stays 0: entries are only ever appended). */
  deployments: ImportCounts;
  /** Lines not imported, with why (`line 7: ...`); at most MAX_REPORTED_PROBLEMS named. */
  problems: string[];
  problemCount: number;
}

/** Loads an archive into `storage`; a bad line is reported and skipped, the others are imported. */
export async function importRegistry(storage: Storage, input: Readable): Promise<ImportReport> {
  const report: ImportReport = {
    schemas: { created: 0, updated: 0, unchanged: 0 },
    consumers: { created: 0, updated: 0, unchanged: 0 },
    environments: { created: 0, updated: 0, unchanged: 0 },
    deployments: { created: 0, updated: 0, unchanged: 0 },
    problems: [],
    problemCount: 0,
  };
  const problem = (lineNumber: number, message: string) => {
    report.problemCount++;
    if (report.problems.length < MAX_REPORTED_PROBLEMS) report.problems.push(`line ${lineNumber}: ${message}`);
  };
  const stored = new Map((await storage.loadSchemaIndex()).map((s) => [versionKey(s.schemaId, s.version), s]));
  /**
   * Consumer lines, applied once every environment line is: a registration needs its environment
   * stored, and archives list consumers before environments.
   */
  const consumers: Array<{ lineNumber: number; line: ArchivedConsumer }> = [];
  /** Deployment lines by schema and environment, oldest first, with their line numbers: applied at the end. */
  const histories = new Map<string, Array<{ lineNumber: number; record: DeploymentRecord }>>();
  let lineNumber = 0;
  let sawHeader = false;
  /** The header's format version: from END_LINE_FROM_VERSION on, the archive must end with its end line. */
  let formatVersion = 0;
  let end: ArchiveEnd | undefined;
  const linesRead: Record<LineType, number> = { schema: 0, consumer: 0, environment: 0, deployment: 0 };
  // Made only now: lines read before anyone iterates would be dropped (the index load above is async).
  for await (const text of readline.createInterface({ input, crlfDelay: Infinity })) {
    lineNumber++;
    if (text.trim() === '') continue;
    let line: { type?: unknown };
    try {
      line = JSON.parse(text) as { type?: unknown };
    } catch (error) {
      problem(lineNumber, `not JSON (${errorMessage(error).slice(0, 80)})`);
      continue;
    }
    try {
      if (line.type === 'header') {
        const header = line as ArchiveHeader;
        if (header.format !== ARCHIVE_FORMAT || !READABLE_FORMAT_VERSIONS.includes(header.formatVersion)) {
          throw new Error(`not an ${ARCHIVE_FORMAT} archive of format version ${READABLE_FORMAT_VERSIONS.join(' or ')} (got ${String(header.format)} ${String(header.formatVersion)})`);
        }
        sawHeader = true;
        formatVersion = header.formatVersion;
      } else if (!sawHeader) {
        throw new Error(`the archive must start with its header line (${ARCHIVE_FORMAT}, format version ${ARCHIVE_FORMAT_VERSION})`);
      } else if (end !== undefined) {
        throw new Error('a line after the end line: the archive was joined to another, or edited');
      } else if (line.type === 'end') {
        end = checkEndLine(line);
      } else if (line.type === 'schema') {
        report.schemas[await importSchemaVersion(storage, checkSchemaLine(line), stored)]++;
      } else if (line.type === 'consumer') {
        consumers.push({ lineNumber, line: checkConsumerLine(line) });
      } else if (line.type === 'environment') {
        report.environments[await importEnvironment(storage, checkEnvironmentLine(line))]++;
      } else if (line.type === 'deployment') {
        const { type: _type, ...record } = checkDeploymentLine(line);
        const key = `${record.schemaId}\u0000${record.environment}`;
        const history = histories.get(key) ?? [];
        history.push({ lineNumber, record });
        histories.set(key, history);
      } else {
        throw new Error(`unknown line type ${JSON.stringify(line.type)}`);
      }
    } catch (error) {
      if (!sawHeader && lineNumber === 1) throw error;
      problem(lineNumber, errorMessage(error));
    }
    if (typeof line.type === 'string' && (LINE_TYPES as readonly string[]).includes(line.type)) linesRead[line.type as LineType]++;
  }
  if (!sawHeader) throw new Error(`the archive is empty: no ${ARCHIVE_FORMAT} header line`);
  if (formatVersion >= END_LINE_FROM_VERSION) {
    const cut = checkWhole(end, linesRead);
    if (cut !== undefined) problem(lineNumber, cut);
  }
  for (const consumer of consumers) {
    try {
      report.consumers[await importConsumer(storage, consumer.line)]++;
    } catch (error) {
      problem(consumer.lineNumber, errorMessage(error));
    }
  }
  await importHistories(storage, histories, report.deployments, problem);
  return report;
}

/** Why an archive is not whole (its end line missing, or counting other lines than were read); undefined when it is. */
function checkWhole(end: ArchiveEnd | undefined, read: Record<LineType, number>): string | undefined {
  const counted = (lines: Record<LineType, number>) => LINE_TYPES.map((type) => `${lines[type]} ${type}`).join(', ');
  if (end === undefined) return `the archive ends before its end line: it was cut short (read ${counted(read)} line(s)); what was read is imported, the rest is missing`;
  if (LINE_TYPES.some((type) => end.lines[type] !== read[type])) {
    return `the archive's end line counts ${counted(end.lines)} line(s), but ${counted(read)} were read: lines are missing or were added`;
  }
  return undefined;
}

function checkEndLine(line: object): ArchiveEnd {
  const lines = (line as { lines?: unknown }).lines;
  if (typeof lines !== 'object' || lines === null || !LINE_TYPES.every((type) => Number.isInteger((lines as Record<string, unknown>)[type]))) {
    throw new Error(`an end line must count its ${LINE_TYPES.join(', ')} lines`);
  }
  return line as ArchiveEnd;
}

async function importEnvironment(storage: Storage, line: ArchivedEnvironment): Promise<keyof ImportCounts> {
  const { type: _type, ...record } = line;
  const existing = (await storage.listEnvironments()).find((environment) => environment.name === record.name);
  if (existing) {
    if (existing.description === record.description) return 'unchanged';
    throw new Error(`environment ${record.name} is stored with another description; left as it is`);
  }
  if (!(await storage.createEnvironment(record))) throw new Error(`environment ${record.name} was created by another writer during the import; import again`);
  return 'created';
}

/**
 * Appends the deployment entries the store lacks, in the archive's order (across environments too,
 * as history lists them newest first). A schema's history in one environment is taken only where the
 * store's is the start of the archive's: its newest entry decides what is deployed there.
 */
async function importHistories(
  storage: Storage,
  histories: Map<string, Array<{ lineNumber: number; record: DeploymentRecord }>>,
  counts: ImportCounts,
  problem: (lineNumber: number, message: string) => void,
): Promise<void> {
  const pending: Array<{ lineNumber: number; record: DeploymentRecord }> = [];
  for (const history of histories.values()) {
    const { schemaId, environment } = history[0]!.record;
    const stored = (await storage.listDeployments({ schemaId, environment }, WHOLE_HISTORY)).reverse();
    const isPrefix = stored.length <= history.length
      && stored.every((entry, i) => sameDeployment(entry, history[i]!.record));
    if (!isPrefix) {
      problem(history[0]!.lineNumber, `the deployment history of ${schemaId} in ${environment} differs from the store's `
        + `(entries stored: ${stored.length}, in the archive: ${history.length}); not merged`);
      continue;
    }
    counts.unchanged += stored.length;
    pending.push(...history.slice(stored.length));
  }
  pending.sort((a, b) => a.lineNumber - b.lineNumber);
  for (const { lineNumber, record } of pending) {
    try {
      await storage.appendDeployment(record);
      counts.created++;
    } catch (error) {
      problem(lineNumber, errorMessage(error));
    }
  }
}

async function importSchemaVersion(
  storage: Storage,
  line: ArchivedSchemaVersion,
  stored: Map<string, SchemaVersionSummary>,
): Promise<keyof ImportCounts> {
  const { type: _type, ...archived } = line;
  const key = versionKey(archived.schemaId, archived.version);
  const existing = stored.get(key);
  if (existing && existing.contentHash === archived.contentHash && sameOwnership(existing.ownership, archived.ownership)) return 'unchanged';
  if (existing?.ownership.readOnly) {
    throw new Error(`schema ${archived.schemaId} version ${archived.version} is stored read-only with other content or ownership; not replaced`);
  }
  const loaded = await loadSchema(archived.content);
  const record: SchemaVersionRecord = { ...archived, documentJson: JSON.stringify(loaded.document) };
  const saved = await storage.saveSchemaVersion(record, existing ?? null);
  if (!saved.saved) throw new Error(`schema ${archived.schemaId} version ${archived.version} was changed by another writer during the import; import again`);
  const { content: _content, documentJson: _json, ...summary } = record;
  stored.set(key, summary);
  return existing ? 'updated' : 'created';
}

async function importConsumer(storage: Storage, line: ArchivedConsumer): Promise<keyof ImportCounts> {
  const { type: _type, ...record } = line;
  const existing = await storage.getConsumer(record);
  if (existing && JSON.stringify(normalizedConsumer(existing)) === JSON.stringify(normalizedConsumer(record))) return 'unchanged';
  await storage.saveConsumer(record);
  return existing ? 'updated' : 'created';
}

function checkSchemaLine(line: Record<string, unknown>): ArchivedSchemaVersion {
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

function checkConsumerLine(line: Record<string, unknown>): ArchivedConsumer {
  for (const field of ['consumerId', 'consumerVersion', 'schemaId', 'schemaVersion', 'environment'] as const) requireString(line, field);
  for (const field of ['registeredAt', 'lastValidatedAt'] as const) requireNumber(line, field);
  const endpoints = line.usedEndpoints;
  if (!Array.isArray(endpoints) || !endpoints.every((e: { method?: unknown; path?: unknown; usedFields?: unknown }) =>
    typeof e?.method === 'string' && typeof e.path === 'string' && Array.isArray(e.usedFields) && e.usedFields.every((f) => typeof f === 'string'))) {
    throw new Error('consumer line: usedEndpoints must be a list of {method, path, usedFields}');
  }
  return line as unknown as ArchivedConsumer;
}

function checkEnvironmentLine(line: Record<string, unknown>): ArchivedEnvironment {
  for (const field of ['name', 'description', 'origin', 'createdBy'] as const) requireString(line, field);
  requireNumber(line, 'createdAt');
  return line as unknown as ArchivedEnvironment;
}

function checkDeploymentLine(line: Record<string, unknown>): ArchivedDeployment {
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

/** The fields of a registration in a fixed order, so that two copies compare as text. */
function normalizedConsumer(record: ConsumerRecord): unknown[] {
  return [record.consumerId, record.consumerVersion, record.schemaId, record.schemaVersion, record.environment,
    record.registeredAt, record.lastValidatedAt, record.usedEndpoints.map((e) => [e.method, e.path, e.usedFields])];
}

function sameDeployment(a: DeploymentRecord, b: DeploymentRecord): boolean {
  return a.schemaId === b.schemaId && a.environment === b.environment && a.consumerId === b.consumerId && a.version === b.version
    && a.action === b.action && a.schemaVersion === b.schemaVersion && a.recordedAt === b.recordedAt && a.recordedBy === b.recordedBy;
}

function sameOwnership(a: SchemaOwnershipRecord, b: SchemaOwnershipRecord): boolean {
  return a.owner === b.owner && a.team === b.team && a.contactEmail === b.contactEmail && a.readOnly === b.readOnly;
}

function versionKey(schemaId: string, version: string): string {
  return `${schemaId}\u0000${version}`;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
