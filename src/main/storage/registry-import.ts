/**
 * Loading an archive (registry-archive.ts) into a store, all or nothing. The stores have no
 * transaction that spans an import, so the archive is read twice: first to check all of it against
 * the store (each line's form and hash, the end line's counts and digest, what each line would
 * change, and that every registration and deployment names a schema version and an environment the
 * archive or the store holds), then, only when nothing is wrong, to write it.
 * Import is idempotent: a version, registration or environment already stored as in the archive is
 * left alone, and a deployment history is appended to only where the store's is the start of the
 * archive's (history decides what is deployed now, so entries are never merged out of order).
 */
import { createHash } from 'node:crypto';
import readline from 'node:readline';
import type { Readable } from 'node:stream';
import { ErrorCode, SvcError, errorMessage } from '../../shared/errors';
import { isBuiltInEnvironment } from '../../shared/identifiers';
import { loadSchema } from '../../shared/openapi/load-document';
import { INTAKE_REVISION } from '../../shared/openapi/schema-intake';
import { sameOwnership } from '../../shared/schema-records';
import {
  ARCHIVE_FORMAT, ARCHIVE_FORMAT_VERSION, DIGEST_FROM_VERSION, END_LINE_FROM_VERSION, ENVIRONMENTS_FROM_VERSION, LINE_TYPES, WHOLE_HISTORY,
  archiveDigest, checkConsumerLine, checkDeploymentLine, checkEndLine, checkEnvironmentLine, checkHeaderLine, checkSchemaLine,
  type ArchiveEnd, type ArchivedConsumer, type ArchivedEnvironment, type ArchivedSchemaVersion, type LineType,
} from './registry-archive';
import type { ConsumerRecord, DeploymentRecord, EnvironmentRecord, SchemaVersionSummary, SchemaVersionWrite, Storage } from './storage';

/** Problems named in an import report; the rest are counted. */
const MAX_REPORTED_PROBLEMS = 20;

export interface ImportOptions {
  /** Refuse other content for a version the store holds, as `svc serve --immutable-versions` refuses it to a registration. */
  immutableVersions: boolean;
  /** Clock in Unix seconds: the creation time of the environments a format version 1 archive's registrations name. */
  now: () => number;
}

const DEFAULT_IMPORT_OPTIONS: Readonly<ImportOptions> = Object.freeze({ immutableVersions: false, now: () => Math.floor(Date.now() / 1000) });

/** Opens the archive from its start; import calls it twice (one read to check, one to write). */
export type OpenArchive = () => Readable | Promise<Readable>;

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
  /** What is wrong with the archive, with where (`line 7: ...`); at most MAX_REPORTED_PROBLEMS named. Any at all: nothing was written. */
  problems: string[];
  problemCount: number;
}

/** What the checking read found to write besides the archive's lines. */
interface ImportPlan {
  /** Every line checked, in order: the writing read must find the same lines. */
  lineHashes: LineHashes;
  /** Environments a format version 1 archive's registrations name (it holds no environments) that the store lacks. */
  impliedEnvironments: string[];
  /** Deployment entries the store lacks, in the archive's order. */
  deployments: DeploymentRecord[];
  /** Environments whose history the archive holds but neither it nor the store holds (deleted since; nothing is deployed there). */
  deletedEnvironments: Set<string>;
  /** Entries the store holds already. */
  storedDeployments: number;
}

/**
 * Loads an archive into `storage` when all of it can be loaded; otherwise writes nothing and names
 * every problem. Throws when the input is no archive at all, or when a write fails after the checks
 * passed (a store that went away, another writer): that error names the line it stopped at.
 */
export async function importRegistry(storage: Storage, openArchive: OpenArchive, options: Partial<ImportOptions> = {}): Promise<ImportReport> {
  const settings = { ...DEFAULT_IMPORT_OPTIONS, ...options };
  const zero = (): ImportCounts => ({ created: 0, updated: 0, unchanged: 0 });
  const report: ImportReport = { schemas: zero(), consumers: zero(), environments: zero(), deployments: zero(), problems: [], problemCount: 0 };
  const problem = (lineNumber: number, message: string) => {
    report.problemCount++;
    if (report.problems.length < MAX_REPORTED_PROBLEMS) report.problems.push(`line ${lineNumber}: ${message}`);
  };
  const plan = await checkArchive(storage, await openArchive(), settings, problem);
  if (report.problemCount > 0) return report;
  await writeArchive(storage, await openArchive(), plan, settings, report);
  return report;
}

/** A registration or deployment entry, and the schema version and environment it names. */
interface Reference {
  lineNumber: number;
  what: string;
  schemaId: string;
  schemaVersion: string;
  environment: string;
}

async function checkArchive(
  storage: Storage,
  input: Readable,
  options: ImportOptions,
  problem: (lineNumber: number, message: string) => void,
): Promise<ImportPlan> {
  const storedVersions = new Map((await storage.loadSchemaIndex()).map((s) => [versionKey(s.schemaId, s.version), s]));
  const storedEnvironments = new Map((await storage.listEnvironments()).map((e) => [e.name, e]));
  const archivedVersions = new Set<string>();
  const archivedEnvironments = new Set<string>();
  const registrations: Reference[] = [];
  /** Deployment lines by schema and environment, oldest first, with their line numbers. */
  const histories = new Map<string, Array<{ lineNumber: number; record: DeploymentRecord }>>();
  const digest = archiveDigest();
  const lineHashes = lineHashList();
  let lastLineNumber = 0;
  let sawHeader = false;
  let formatVersion = 0;
  let end: ArchiveEnd | undefined;
  const linesRead: Record<LineType, number> = { schema: 0, consumer: 0, environment: 0, deployment: 0 };
  for await (const { lineNumber, text } of archiveLines(input)) {
    lastLineNumber = lineNumber;
    lineHashes.add(text);
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(text) as Record<string, unknown>;
      if (typeof line !== 'object' || line === null || Array.isArray(line)) throw new Error('a line must be a JSON object');
    } catch (error) {
      digest.add(text);
      problem(lineNumber, `not an archive line (${errorMessage(error).slice(0, 80)})`);
      continue;
    }
    if (line.type !== 'end') digest.add(text);
    try {
      if (end !== undefined) {
        throw new Error('a line after the end line: the archive was joined to another, or edited');
      } else if (line.type === 'header') {
        // One header: a second would reset the format version, and with it the checks of the end line.
        if (sawHeader) throw new Error('a second header line: the archive was joined to another, or edited');
        formatVersion = checkHeaderLine(line).formatVersion;
        sawHeader = true;
      } else if (!sawHeader) {
        throw new Error(`the archive must start with its header line (${ARCHIVE_FORMAT}, format version ${ARCHIVE_FORMAT_VERSION})`);
      } else if (line.type === 'end') {
        end = checkEndLine(line, formatVersion);
      } else if (line.type === 'schema') {
        const archived = checkSchemaLine(line);
        const key = versionKey(archived.schemaId, archived.version);
        if (archivedVersions.has(key)) throw new Error(`schema ${archived.schemaId} version ${archived.version} is in the archive twice`);
        archivedVersions.add(key);
        // The text goes through intake now, so an archive intake refuses is refused before anything is written.
        if (schemaChange(storedVersions.get(key), archived, options) !== 'unchanged') await loadSchema(archived.content);
      } else if (line.type === 'consumer') {
        const { consumerId, schemaId, schemaVersion, environment } = checkConsumerLine(line);
        registrations.push({ lineNumber, what: `consumer ${consumerId} of ${schemaId} in ${environment}`, schemaId, schemaVersion, environment });
      } else if (line.type === 'environment') {
        const archived = checkEnvironmentLine(line);
        if (archivedEnvironments.has(archived.name)) throw new Error(`environment ${archived.name} is in the archive twice`);
        archivedEnvironments.add(archived.name);
        environmentChange(storedEnvironments.get(archived.name), archived);
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
  // An end line, and a digest in it, are checked whatever the header says: a header edited down to a
  // version before them does not switch the checks off.
  if (formatVersion >= END_LINE_FROM_VERSION || end !== undefined) {
    const digested = formatVersion >= DIGEST_FROM_VERSION || end?.sha256 !== undefined;
    const notWhole = checkWhole(end, linesRead, digested ? digest.hex() : undefined);
    if (notWhole !== undefined) problem(lastLineNumber, notWhole);
  }

  const knownVersion = (schemaId: string, version: string) =>
    archivedVersions.has(versionKey(schemaId, version)) || storedVersions.has(versionKey(schemaId, version));
  const knownEnvironment = (name: string) => isBuiltInEnvironment(name) || archivedEnvironments.has(name) || storedEnvironments.has(name);
  const impliedEnvironments = new Set<string>();
  for (const { lineNumber, what, schemaId, schemaVersion, environment } of registrations) {
    if (!knownVersion(schemaId, schemaVersion)) {
      problem(lineNumber, `${what} names ${schemaId} version ${schemaVersion}, which neither the archive nor the store holds`);
    }
    if (knownEnvironment(environment)) continue;
    // Before format version 2 environments were not kept: they become known ones, as the store's own upgrade makes them.
    if (formatVersion < ENVIRONMENTS_FROM_VERSION) impliedEnvironments.add(environment);
    else problem(lineNumber, `${what}: environment ${environment} is neither in the archive nor stored`);
  }
  const deployments = await checkHistories(storage, histories, knownVersion, knownEnvironment, problem);
  return { lineHashes, impliedEnvironments: [...impliedEnvironments], ...deployments };
}

/**
 * The deployment entries the store lacks, in the archive's order (across environments too, as
 * history lists them newest first). A schema's history in one environment is taken only where the
 * store's is the start of the archive's: its newest entry decides what is deployed there. Every
 * entry that deploys names a schema version the archive or the store holds; an environment that is
 * neither archived nor stored is accepted only where nothing is deployed there any more (a deleted
 * environment keeps its history).
 */
async function checkHistories(
  storage: Storage,
  histories: Map<string, Array<{ lineNumber: number; record: DeploymentRecord }>>,
  knownVersion: (schemaId: string, version: string) => boolean,
  knownEnvironment: (name: string) => boolean,
  problem: (lineNumber: number, message: string) => void,
): Promise<Pick<ImportPlan, 'deployments' | 'storedDeployments' | 'deletedEnvironments'>> {
  const pending: Array<{ lineNumber: number; record: DeploymentRecord }> = [];
  const deletedEnvironments = new Set<string>();
  let storedDeployments = 0;
  for (const history of histories.values()) {
    const { schemaId, environment } = history[0]!.record;
    const newestByTarget = new Map<string, { lineNumber: number; record: DeploymentRecord }>();
    for (const entry of history) {
      const { consumerId, version, schemaVersion, action } = entry.record;
      newestByTarget.set(consumerId, entry);
      const named = consumerId === '' ? version : schemaVersion;
      if (action === 'deployed' && !knownVersion(schemaId, named)) {
        problem(entry.lineNumber, `the deployment of ${deploymentTarget(entry.record)} to ${environment} names ${schemaId} version ${named}, which neither the archive nor the store holds`);
      }
    }
    if (!knownEnvironment(environment)) {
      deletedEnvironments.add(environment);
      for (const { lineNumber, record } of newestByTarget.values()) {
        if (record.action === 'deployed') problem(lineNumber, `${deploymentTarget(record)} is recorded as deployed to ${environment}, an environment neither in the archive nor stored`);
      }
    }
    const stored = (await storage.listDeployments({ schemaId, environment }, WHOLE_HISTORY)).reverse();
    const isPrefix = stored.length <= history.length
      && stored.every((entry, i) => sameDeployment(entry, history[i]!.record));
    if (!isPrefix) {
      problem(history[0]!.lineNumber, `the deployment history of ${schemaId} in ${environment} differs from the store's `
        + `(entries stored: ${stored.length}, in the archive: ${history.length}); it cannot be continued`);
      continue;
    }
    storedDeployments += stored.length;
    pending.push(...history.slice(stored.length));
  }
  pending.sort((a, b) => a.lineNumber - b.lineNumber);
  return { deployments: pending.map((entry) => entry.record), storedDeployments, deletedEnvironments };
}

/**
 * The second read: every line as checked, written; registrations after every environment (the store
 * takes a registration only into an environment it holds, and archives list registrations first),
 * the deployment entries last.
 */
async function writeArchive(storage: Storage, input: Readable, plan: ImportPlan, options: ImportOptions, report: ImportReport): Promise<void> {
  const storedVersions = new Map((await storage.loadSchemaIndex()).map((s) => [versionKey(s.schemaId, s.version), s]));
  let lineNumber = 0;
  const stopped = (error: unknown) => new Error(`import stopped at line ${lineNumber}: ${errorMessage(error)}; `
    + 'part of the archive was written (import it again to finish: what is stored as in the archive is left alone)', { cause: error });
  let read = 0;
  const registrations: Array<{ lineNumber: number; archived: ArchivedConsumer }> = [];
  for await (const line of archiveLines(input)) {
    lineNumber = line.lineNumber;
    if (!plan.lineHashes.matches(read++, line.text)) {
      throw stopped(new Error('the line differs from the one checked: the archive file changed during the import'));
    }
    const archived = JSON.parse(line.text) as { type: string };
    try {
      if (archived.type === 'schema') {
        report.schemas[await writeSchemaVersion(storage, archived as ArchivedSchemaVersion, storedVersions, options)]++;
      } else if (archived.type === 'consumer') {
        registrations.push({ lineNumber, archived: archived as ArchivedConsumer });
      } else if (archived.type === 'environment') {
        report.environments[await writeEnvironment(storage, archived as ArchivedEnvironment)]++;
      }
    } catch (error) {
      throw stopped(error);
    }
  }
  if (read !== plan.lineHashes.count()) throw stopped(new Error('the archive file is shorter than when it was checked: it changed during the import'));
  for (const name of plan.impliedEnvironments) {
    const created = await storage.createEnvironment({ name, description: '', origin: 'existing-registrations', createdAt: options.now(), createdBy: '' });
    report.environments[created ? 'created' : 'unchanged']++;
  }
  for (const registration of registrations) {
    lineNumber = registration.lineNumber;
    try {
      report.consumers[await writeConsumer(storage, registration.archived)]++;
    } catch (error) {
      throw stopped(error);
    }
  }
  report.deployments.unchanged = plan.storedDeployments;
  for (const record of plan.deployments) {
    await storage.appendDeployment(record, { ofDeletedEnvironment: plan.deletedEnvironments.has(record.environment) });
    report.deployments.created++;
  }
}

/** Why an archive is not whole (its end line missing, counting other lines than were read, or holding another digest); undefined when it is. */
function checkWhole(end: ArchiveEnd | undefined, read: Record<LineType, number>, digest: string | undefined): string | undefined {
  const counted = (lines: Record<LineType, number>) => LINE_TYPES.map((type) => `${lines[type]} ${type}`).join(', ');
  if (end === undefined) return `the archive ends before its end line: it was cut short (read ${counted(read)} line(s))`;
  if (LINE_TYPES.some((type) => end.lines[type] !== read[type])) {
    return `the archive's end line counts ${counted(end.lines)} line(s), but ${counted(read)} were read: lines are missing or were added`;
  }
  if (digest !== undefined && end.sha256 !== digest) {
    return `the lines do not match the sha256 of the end line (${end.sha256!.slice(0, 12)}, read ${digest.slice(0, 12)}): the archive was edited or damaged after it was exported`;
  }
  return undefined;
}

/** What the writing read compares each line with: a prefix of its SHA-256, in one buffer for all lines. */
interface LineHashes {
  add(text: string): void;
  /** Whether `text` is the line added at `index`. */
  matches(index: number, text: string): boolean;
  count(): number;
}

/**
 * 16 bytes of each line's SHA-256 (enough to tell a changed file from the one checked), in one
 * growing buffer: a Buffer of its own per line took about 470 bytes a line, 470 MB for a million.
 */
function lineHashList(): LineHashes {
  const HASH_BYTES = 16;
  let hashes = Buffer.alloc(HASH_BYTES * 1024);
  let count = 0;
  const hashOf = (text: string) => createHash('sha256').update(text).digest().subarray(0, HASH_BYTES);
  return {
    add(text) {
      if ((count + 1) * HASH_BYTES > hashes.length) hashes = Buffer.concat([hashes, Buffer.alloc(hashes.length)]);
      hashOf(text).copy(hashes, count * HASH_BYTES);
      count++;
    },
    matches: (index, text) => index < count && hashOf(text).equals(hashes.subarray(index * HASH_BYTES, (index + 1) * HASH_BYTES)),
    count: () => count,
  };
}

/** The archive's lines that are not blank, numbered as in the file. */
async function* archiveLines(input: Readable): AsyncGenerator<{ lineNumber: number; text: string }> {
  let lineNumber = 0;
  // Made on the first read, after the store was read: lines read before anyone iterates would be dropped.
  for await (const text of readline.createInterface({ input, crlfDelay: Infinity })) {
    lineNumber++;
    if (text.trim() !== '') yield { lineNumber, text };
  }
}

/** What importing `archived` does to the version the store holds; throws when that version must not change. */
function schemaChange(existing: SchemaVersionSummary | undefined, archived: ArchivedSchemaVersion, options: ImportOptions): keyof ImportCounts {
  if (!existing) return 'created';
  if (existing.contentHash === archived.contentHash && sameOwnership(existing.ownership, archived.ownership)) return 'unchanged';
  const label = `schema ${archived.schemaId} version ${archived.version}`;
  if (existing.ownership.readOnly) {
    throw new SvcError(ErrorCode.READ_ONLY, `${label} is stored read-only with other content or ownership; it cannot be replaced`);
  }
  if (options.immutableVersions && existing.contentHash !== archived.contentHash) {
    throw new SvcError(ErrorCode.VERSION_IMMUTABLE, `${label} is stored with other content (hash ${existing.contentHash.slice(0, 12)}, `
      + `in the archive ${archived.contentHash.slice(0, 12)}) and versions are immutable (--immutable-versions); it cannot be replaced`);
  }
  return 'updated';
}

function environmentChange(existing: EnvironmentRecord | undefined, archived: ArchivedEnvironment): 'created' | 'unchanged' {
  if (!existing) return 'created';
  if (existing.description === archived.description) return 'unchanged';
  throw new Error(`environment ${archived.name} is stored with another description than the archive's`);
}

async function writeSchemaVersion(
  storage: Storage,
  archived: ArchivedSchemaVersion,
  stored: Map<string, SchemaVersionSummary>,
  options: ImportOptions,
): Promise<keyof ImportCounts> {
  const existing = stored.get(versionKey(archived.schemaId, archived.version));
  const change = schemaChange(existing, archived, options);
  if (change === 'unchanged') return change;
  const { type: _type, ...fields } = archived;
  const record: SchemaVersionWrite = { ...fields, documentJson: JSON.stringify((await loadSchema(archived.content)).document), intakeRevision: INTAKE_REVISION };
  const saved = await storage.saveSchemaVersion(record, existing ?? null);
  if (!saved.saved) throw new Error(`schema ${archived.schemaId} version ${archived.version} was changed by another writer during the import`);
  return change;
}

async function writeConsumer(storage: Storage, archived: ArchivedConsumer): Promise<keyof ImportCounts> {
  const { type: _type, ...record } = archived;
  const existing = await storage.getConsumer(record);
  if (existing && JSON.stringify(normalizedConsumer(existing)) === JSON.stringify(normalizedConsumer(record))) return 'unchanged';
  await storage.saveConsumer(record);
  return existing ? 'updated' : 'created';
}

async function writeEnvironment(storage: Storage, archived: ArchivedEnvironment): Promise<keyof ImportCounts> {
  const { type: _type, ...record } = archived;
  const change = environmentChange((await storage.listEnvironments()).find((environment) => environment.name === record.name), archived);
  if (change === 'created' && !(await storage.createEnvironment(record))) {
    throw new Error(`environment ${record.name} was created by another writer during the import`);
  }
  return change;
}

function deploymentTarget(record: DeploymentRecord): string {
  return record.consumerId === '' ? `${record.schemaId} ${record.version}` : `consumer ${record.consumerId} ${record.version} of ${record.schemaId}`;
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

function versionKey(schemaId: string, version: string): string {
  return `${schemaId}\u0000${version}`;
}
