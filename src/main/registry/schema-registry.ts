/**
 * The schema registry: owns every registered schema version. An in-memory index of all versions
 * (no texts) answers latest/previous/list in memory; texts and documents come from storage, with
 * a small cache of parsed documents for the engines.
 */
import semver from 'semver';
import {
  ErrorCode, SvcError, errorMessage, invalidArgument, schemaNotFound, schemaVersionNotFound,
} from '../../shared/errors';
import {
  checkIdentifier, checkMetadataText, checkSemanticVersion, compareVersions, isSemanticVersion,
} from '../../shared/identifiers';
import type { IntakeResult, TaskDocument } from '../../shared/document-task-protocol';
import { INTAKE_REVISION, intakeSchema } from '../../shared/openapi/schema-intake';
import type { OpenApiDocument } from '../../shared/openapi/document';
import { summarizeOperations, type OperationSummary } from '../../shared/openapi/operations';
import { EMPTY_OWNERSHIP, sameOwnership, type SchemaOwnershipRecord, type SchemaText, type VersionDocument, type VersionRef } from '../../shared/schema-records';
export type { VersionDocument, VersionRef } from '../../shared/schema-records';
import type { SchemaVersionSummary, SchemaVersionWrite, Storage, StorageChange, StoredDocument } from '../storage/storage';
import { INTERNAL_CALLER } from '../auth/principal';
import type { Logger } from '../logger';
import { KeyedMutex } from '../storage/keyed-mutex';
import { TaskSlots } from '../storage/task-slots';
import { wasStoppedByTime } from '../document-task-pool';
import { createSharedTasks } from '../shared-tasks';
import { LIMITS } from '../../shared/limits';
import { LruCache } from '../../shared/lru-cache';

/** The operations of one version: what ListEndpoints and RegisterConsumer need, without the document. */
export interface VersionOperations {
  schemaId: string;
  version: string;
  hash: string;
  operations: readonly OperationSummary[];
}

export interface RegisterInput {
  schemaId: string;
  content: SchemaText;
  /** Empty: the document's `info.version`. */
  version: string;
  /** Undefined: inherited from the latest version of the same id (or empty for a new id). */
  ownership: SchemaOwnershipRecord | undefined;
}

/** `not-stored`: a dry run, or a registration its gate refused. */
export type RegisterOutcome = 'created' | 'updated' | 'unchanged' | 'not-stored';

/** Why a version was chosen for a registration that gave none and whose `info.version` is not a semantic version. */
export interface VersionAssignment {
  code: 'VERSION_ASSIGNED';
  pointer: '/info/version';
  message: string;
}

export interface RegisterResult {
  outcome: RegisterOutcome;
  metadata: SchemaVersionSummary;
  /** The version before this one by semantic-version order, if any. */
  previousVersion: string | undefined;
  loaded: IntakeResult;
  /** Set when the version was coerced from `info.version` or assigned. */
  versionAssignment: VersionAssignment | undefined;
}

/** A document that passed intake, with the version it gets: what a gate or a check before publishing looks at. */
export interface SchemaCandidate {
  schemaId: string;
  version: string;
  contentHash: string;
  /** The engine document as JSON text (what comparisons take). */
  documentJson: string;
  loaded: IntakeResult;
  /** The registered version before `version`, if any. */
  previousVersion: string | undefined;
  /** Metadata the version would have once registered. */
  metadata: SchemaVersionSummary;
  versionAssignment: VersionAssignment | undefined;
}

export interface RegisterOptions {
  /** Whom the intake is counted against (auth/principal.ts `callerOf`, or INTERNAL_CALLER). */
  caller: string;
  /** Whether the call asking has gone (cancelled, past its deadline): its intake is then dropped or stopped (DocumentTaskPool.run). */
  gone?: () => boolean;
  /** Checks everything and stores nothing (outcome `not-stored`). */
  dryRun?: boolean;
  /**
   * Runs after intake and version assignment, before anything is stored, under the schema's write
   * lock (so no other registration of the schema slips in between); false stores nothing.
   */
  gate?: (candidate: SchemaCandidate) => Promise<boolean>;
  /**
   * Runs under the schema's write lock once the version and the ownership it gets are known, before
   * anything is compared or stored; throws to refuse (what the caller's key may write:
   * auth/schema-write-access.ts), judged by what is stored at the moment of writing.
   */
  authorize?: (write: SchemaWrite) => void;
}

/** What a registration would write over: `authorize`'s view. */
export interface SchemaWrite {
  /** The ownership the version gets: given, else inherited from `existing`, else from `latest`. */
  ownership: SchemaOwnershipRecord;
  /** The version as registered now, when it is registered again. */
  existing: SchemaVersionSummary | undefined;
  /** The schema's latest version, when the id is registered. */
  latest: SchemaVersionSummary | undefined;
}

export interface SchemaRegistryOptions {
  /** Reads a registered text (parse, convert, check); the server runs it on a document-task thread, counted against `caller`. */
  intake: (content: SchemaText, caller: string, gone?: () => boolean) => Promise<IntakeResult>;
  /**
   * Lists the operations of a registered document; the server runs it on a document-task thread,
   * counted against `caller`, so a large document is never parsed on the main thread for a listing.
   * `gone` tells whether everyone waiting for the listing has gone: the task is then dropped.
   */
  listOperations: (document: TaskDocument, caller: string, gone?: () => boolean) => Promise<OperationSummary[]>;
  /** Version documents kept in memory (each can be tens of MB for the largest descriptions). */
  documentCacheEntries: number;
  /** Estimated bytes those documents may hold together (see weighDocument). */
  documentCacheMaxBytes: number;
  /** Refuse different content for a version already registered (identical content stays idempotent). */
  immutableVersions: boolean;
  /** Clock in Unix seconds; injectable for tests. */
  now: () => number;
  /** Where a stored version that the current intake cannot read again is reported. */
  logger?: Logger;
}

const DEFAULT_OPTIONS: SchemaRegistryOptions = {
  intake: intakeSchema,
  listOperations: async ({ documentJson }) => summarizeOperations(JSON.parse(documentJson) as OpenApiDocument),
  documentCacheEntries: 64,
  documentCacheMaxBytes: LIMITS.registryDocumentCacheMaxBytes,
  immutableVersions: false,
  now: () => Math.floor(Date.now() / 1000),
};

/**
 * Versions read again from their text at once after an upgrade (readAgain); well under what one
 * caller may queue for the document-task threads (documentTaskMaxQueuedPerCaller, 16).
 */
const REREADS_IN_FLIGHT = 4;
/** Readings of one version again stopped by their time budget before its text counts as one intake refuses. */
const READING_AGAIN_TIME_STOPS = 3;

/** The version a schema gets when it names none and its `info.version` cannot be read as one. */
const FIRST_ASSIGNED_VERSION = '1.0.0';

export class SchemaRegistry {
  readonly #storage: Storage;
  readonly #options: SchemaRegistryOptions;
  /** schema id → versions, ascending by semantic version. */
  readonly #index = new Map<string, SchemaVersionSummary[]>();
  /**
   * schema id → version → its summary in #index: a version is found at once, not by a scan of its
   * id's versions (20,000 versions of one id: each pinned lookup read them all, and a resync, which
   * looks up every stored version, held the main thread 0.8 s).
   */
  readonly #byVersion = new Map<string, Map<string, SchemaVersionSummary>>();
  /** The index's schema ids in ascending order, each put in place as it arrives (ListSchemas pages through them). */
  readonly #sortedIds: string[] = [];
  #indexRevision = 0;
  /** Documents as JSON text by version and hash. */
  readonly #documents: LruCache<string, string>;
  /** Operations by version and hash: a few MB for the largest documents, kept far longer than their documents. */
  readonly #operations = new LruCache<string, VersionOperations>(OPERATION_INDEX_ENTRIES, {
    maxWeight: LIMITS.registryOperationIndexMaxBytes, weigh: weighOperations,
  });
  /** Listings being computed: concurrent calls for one version share one task, stopped once all of them have gone. */
  readonly #listings = createSharedTasks<VersionOperations>();
  /** Documents being made again from their text (readAgain), by cache key: one intake for all who wait. */
  readonly #rereads = new Map<string, Promise<string>>();
  readonly #rereadSlots = new TaskSlots(REREADS_IN_FLIGHT);
  /** Versions whose stored text the current intake refuses (readAgain), by cache key: not read again in this process. */
  readonly #unreadable = new Set<string>();
  /** Readings again stopped by their time budget so far, by cache key (READING_AGAIN_TIME_STOPS). */
  readonly #timeStops = new Map<string, number>();
  /**
   * Registrations of one schema id in this process, one at a time. Across replicas the store's
   * conditional write decides (saveSchemaVersion with `expected`), so no lock of the store is needed.
   */
  readonly #writes = new KeyedMutex();
  /** One frozen VersionRef per summary (a re-registration indexes a new summary, so no invalidation). */
  readonly #refs = new WeakMap<SchemaVersionSummary, VersionRef>();

  private constructor(storage: Storage, options: SchemaRegistryOptions) {
    this.#storage = storage;
    this.#options = options;
    this.#documents = new LruCache(options.documentCacheEntries, { maxWeight: options.documentCacheMaxBytes, weigh: weighDocument });
  }

  /** Loads the index of every stored version; on a store shared by replicas, follows their changes. */
  static async open(storage: Storage, options: Partial<SchemaRegistryOptions> = {}): Promise<SchemaRegistry> {
    const registry = new SchemaRegistry(storage, { ...DEFAULT_OPTIONS, ...options });
    for (const summary of await storage.loadSchemaIndex()) registry.#indexVersion(summary);
    storage.changes?.subscribe((change) => registry.#applyChange(change));
    return registry;
  }

  /** Checks, converts and stores one version; see docs/registry.md for the rules. */
  async register(input: RegisterInput, options: RegisterOptions): Promise<RegisterResult> {
    checkIdentifier('schema_id', input.schemaId);
    if (input.version !== '') checkSemanticVersion('schema_version', input.version);
    if (input.ownership) {
      checkMetadataText('ownership.owner', input.ownership.owner);
      checkMetadataText('ownership.team', input.ownership.team);
      checkMetadataText('ownership.contact_email', input.ownership.contactEmail);
    }
    const loaded = await this.#options.intake(input.content, options.caller, options.gone);
    const { contentHash } = loaded;

    return this.#writes.run(input.schemaId, async () => {
      // The whole id: an assigned version is the next one after the latest.
      await this.#readVersionsToChooseFrom(input.schemaId, input.version, loaded.infoVersion);
      const { version, assignment } = this.#chooseVersion(input.schemaId, input.version, loaded.infoVersion, contentHash);
      await this.readThrough(input.schemaId, version);
      const existing = this.#summary(input.schemaId, version);
      const latest = this.#latestSummary(input.schemaId);
      const ownership = input.ownership ?? existing?.ownership ?? latest?.ownership ?? EMPTY_OWNERSHIP;
      options.authorize?.({ ownership, existing, latest });
      const previousVersion = this.previousVersion(input.schemaId, version);
      const base = { previousVersion, loaded, versionAssignment: assignment };

      if (existing && existing.contentHash === contentHash && sameOwnership(existing.ownership, ownership)) {
        return { ...base, outcome: 'unchanged', metadata: existing };
      }
      const label = `schema ${input.schemaId} version ${version}`;
      if (existing?.ownership.readOnly) {
        throw new SvcError(ErrorCode.READ_ONLY, `${label} is read-only and cannot be updated; register a new version instead`);
      }
      if (existing && existing.contentHash !== contentHash && this.#options.immutableVersions) {
        throw new SvcError(
          ErrorCode.VERSION_IMMUTABLE,
          `${label} is already published with other content (hash ${existing.contentHash.slice(0, 12)}) and this server keeps published versions immutable; register the change as a new version`,
        );
      }
      const now = this.#options.now();
      const documentJson = loaded.documentJson;
      const record: SchemaVersionWrite = {
        schemaId: input.schemaId,
        version,
        content: input.content,
        contentHash,
        documentJson,
        openapiVersion: loaded.openapiVersion,
        endpointCount: loaded.endpointCount,
        ownership: { ...ownership },
        registeredAt: existing?.registeredAt ?? now,
        updatedAt: now,
        intakeRevision: INTAKE_REVISION,
      };
      const { content: _content, documentJson: _json, intakeRevision: _revision, ...summary } = record;
      if (options.gate || options.dryRun) {
        const candidate: SchemaCandidate = { ...base, schemaId: input.schemaId, version, contentHash, documentJson, metadata: summary };
        const proceed = options.gate ? await options.gate(candidate) : true;
        if (!proceed || options.dryRun) return { ...base, outcome: 'not-stored', metadata: candidate.metadata };
      }
      // Conditional on what was read: another replica may have written the version meanwhile.
      const saved = await this.#storage.saveSchemaVersion(record, existing ?? null);
      if (!saved.saved) return { ...this.#afterConcurrentWrite(record, saved.current, loaded), versionAssignment: assignment };
      this.#indexVersion(saved.revision === undefined ? summary : { ...summary, revision: saved.revision });
      this.#documents.set(cacheKey(input.schemaId, version, contentHash), documentJson);
      return { ...base, outcome: existing ? 'updated' : 'created', metadata: summary };
    });
  }

  /**
   * A document checked by the registration's intake rules and given the version it would get,
   * without storing anything: what CanIDeploy and CompareSchemas judge before publishing.
   */
  async candidate(schemaId: string, content: string, version: string, caller: string, gone?: () => boolean): Promise<SchemaCandidate> {
    checkIdentifier('schema_id', schemaId);
    if (version !== '') checkSemanticVersion('new_version', version);
    const loaded = await this.#options.intake(content, caller, gone);
    const { contentHash } = loaded;
    await this.#readVersionsToChooseFrom(schemaId, version, loaded.infoVersion);
    const chosen = this.#chooseVersion(schemaId, version, loaded.infoVersion, contentHash);
    const now = this.#options.now();
    const existing = this.#summary(schemaId, chosen.version);
    const ownership = existing?.ownership ?? this.#latestSummary(schemaId)?.ownership ?? EMPTY_OWNERSHIP;
    return {
      schemaId,
      version: chosen.version,
      contentHash,
      documentJson: loaded.documentJson,
      loaded,
      previousVersion: this.previousVersion(schemaId, chosen.version),
      versionAssignment: chosen.assignment,
      metadata: {
        schemaId, version: chosen.version, contentHash, openapiVersion: loaded.openapiVersion, endpointCount: loaded.endpointCount,
        ownership, registeredAt: existing?.registeredAt ?? now, updatedAt: now,
      },
    };
  }

  /**
   * DESIGN.md "Version omitted at registration": a given version as is; else `info.version` when it
   * is a semantic version; else coerced where the meaning is clear (`1.0` → `1.0.0`, `v2` → `2.0.0`);
   * else the next patch after the latest (the latest itself when it holds the same content, so
   * registering the same document twice stays idempotent).
   */
  #chooseVersion(schemaId: string, given: string, infoVersion: string | undefined, contentHash: string): { version: string; assignment?: VersionAssignment } {
    if (given !== '') return { version: given };
    if (infoVersion === undefined || infoVersion === '') {
      throw invalidArgument('schema_version is empty and the document has no info.version; give a semantic version');
    }
    if (isSemanticVersion(infoVersion)) return { version: infoVersion };
    const shown = infoVersion.slice(0, 64);
    const coerced = coerceVersion(infoVersion);
    if (coerced !== undefined) {
      return { version: coerced, assignment: versionAssignment(`info.version "${shown}" is not a semantic version; registered as ${coerced}, its evident meaning (give schema_version to choose another)`) };
    }
    const latest = this.#latestSummary(schemaId);
    if (latest?.contentHash === contentHash) {
      return { version: latest.version, assignment: versionAssignment(`info.version "${shown}" is not a semantic version; this content is already registered as ${latest.version}, the latest version`) };
    }
    const next = latest ? semver.inc(latest.version, 'patch')! : FIRST_ASSIGNED_VERSION;
    const why = latest ? `the next patch version after the latest, ${latest.version}` : 'the first version of a new schema';
    return { version: next, assignment: versionAssignment(`info.version "${shown}" is not a semantic version; assigned ${next}, ${why} (give schema_version to choose another)`) };
  }

  /**
   * The operations of a version (latest when `version` is empty), listed on a document-task thread
   * (`listOperations`) and kept per version: the main thread handles the text, never the parsed document.
   * `gone` tells whether the asker has gone (its call cancelled or past its deadline): a listing all
   * of whose askers have gone is stopped, and the next asker starts it again.
   */
  async operations(schemaId: string, version: string, caller: string, gone?: () => boolean): Promise<VersionOperations> {
    await this.readThrough(schemaId, version);
    const ref = this.versionRef(schemaId, version);
    const key = cacheKey(ref.schemaId, ref.version, ref.hash);
    const cached = this.#operations.get(key);
    if (cached) return cached;
    return this.#listings.run(key, gone, async (allGone) => {
      const source = await this.documentSource(ref.schemaId, ref.version);
      const operations = await this.#options.listOperations({ hash: source.ref.hash, documentJson: source.documentJson }, caller, allGone);
      // Keyed by what was read: the version may have been registered again meanwhile.
      const entry: VersionOperations = { schemaId: source.ref.schemaId, version: source.ref.version, hash: source.ref.hash, operations };
      this.#operations.set(cacheKey(entry.schemaId, entry.version, entry.hash), entry);
      return entry;
    });
  }

  /** The version's listing when this replica holds it already (no read-through, no task): for a caller that must not wait. */
  cachedOperations(ref: VersionRef): VersionOperations | undefined {
    return this.#operations.get(cacheKey(ref.schemaId, ref.version, ref.hash));
  }

  /**
   * Id, version and hash of a version (latest when `version` is empty): the validation hot path's
   * lookup, in memory and without allocating per call.
   */
  versionRef(schemaId: string, version = ''): VersionRef {
    return this.#refOf(this.#requireSummary(schemaId, version));
  }

  #refOf(summary: SchemaVersionSummary): VersionRef {
    let ref = this.#refs.get(summary);
    if (!ref) {
      ref = Object.freeze({ schemaId: summary.schemaId, version: summary.version, hash: summary.contentHash });
      this.#refs.set(summary, ref);
    }
    return ref;
  }

  /**
   * The document of a version as JSON text, for worker threads: from the document cache when it is
   * there, else from storage without parsing it on the main thread (a large description takes tens
   * of milliseconds to parse).
   */
  async documentSource(schemaId: string, version = ''): Promise<VersionDocument> {
    await this.readThrough(schemaId, version);
    const ref = this.versionRef(schemaId, version);
    const cached = this.#documents.get(cacheKey(ref.schemaId, ref.version, ref.hash));
    if (cached !== undefined) return { ref, documentJson: cached };
    const stored = await this.#storage.getSchemaDocument(ref.schemaId, ref.version);
    if (!stored) throw schemaVersionNotFound();
    // Described by what was read: it may be newer than `ref` if the version was registered again meanwhile.
    const read = { schemaId: ref.schemaId, version: ref.version, hash: stored.contentHash };
    const documentJson = stored.intakeRevision < INTAKE_REVISION ? await this.#readAgain(read, stored) : stored.documentJson;
    this.#documents.set(cacheKey(read.schemaId, read.version, read.hash), documentJson);
    return { ref: read, documentJson };
  }

  /**
   * The engine document of a version stored by an earlier intake, made again from its registered
   * text by the current one (on a document-task thread, as a registration's) and written back, so
   * that a version registered before an upgrade is read as one registered after it.
   * - A text the current intake refuses keeps the stored document, with a warning, once per process.
   * - When the threads that read texts are busy (OVERLOADED) or gone (UNAVAILABLE), or the reading
   *   ran out of its time budget (up to READING_AGAIN_TIME_STOPS times), the call fails to be
   *   retried: handing out the earlier document would have it compiled and kept by content hash.
   * - At most REREADS_IN_FLIGHT run at once, the rest wait their turn: the first calls after an
   *   upgrade name many versions at once, more than a caller may queue (documentTaskMaxQueuedPerCaller).
   */
  async #readAgain(ref: VersionRef, stored: StoredDocument): Promise<string> {
    const key = cacheKey(ref.schemaId, ref.version, ref.hash);
    if (this.#unreadable.has(key)) return stored.documentJson;
    let pending = this.#rereads.get(key);
    if (!pending) {
      pending = this.#rereadSlots.run(() => this.#intakeAgain(ref, key, stored)).finally(() => this.#rereads.delete(key));
      this.#rereads.set(key, pending);
    }
    return pending;
  }

  async #intakeAgain(ref: VersionRef, key: string, stored: StoredDocument): Promise<string> {
    const label = `schema ${ref.schemaId} version ${ref.version}`;
    const content = await this.#storage.getSchemaContentBytes(ref.schemaId, ref.version);
    if (content === undefined) return stored.documentJson;
    let loaded: IntakeResult;
    try {
      loaded = await this.#options.intake(content, INTERNAL_CALLER);
    } catch (error) {
      const code = error instanceof SvcError ? error.code : ErrorCode.INTERNAL;
      if (code === ErrorCode.OVERLOADED || code === ErrorCode.UNAVAILABLE) {
        throw new SvcError(code, `${label} is read again from its text after an upgrade of svc, and the threads that read texts are busy: retry shortly`, { cause: error });
      }
      // A time budget is wall-clock time: a loaded host can stop a reading that an idle one finishes.
      const timeStops = wasStoppedByTime(error) ? (this.#timeStops.get(key) ?? 0) + 1 : 0;
      if (timeStops > 0 && timeStops < READING_AGAIN_TIME_STOPS) {
        this.#timeStops.set(key, timeStops);
        throw new SvcError(ErrorCode.OVERLOADED, `${label} is read again from its text after an upgrade of svc, and the reading ran out of time: retry shortly (${errorMessage(error)})`, { cause: error });
      }
      this.#timeStops.delete(key);
      this.#unreadable.add(key);
      this.#options.logger?.warn(
        { caller: 'schema-registry', err: error },
        `${label} was stored by an earlier intake (revision ${stored.intakeRevision}, now ${INTAKE_REVISION}) and could not be read again from its text; `
          + `its stored document is used: ${errorMessage(error)}`,
      );
      return stored.documentJson;
    }
    // Registered again meanwhile: its new document is the current intake's already.
    if (loaded.contentHash !== stored.contentHash) return stored.documentJson;
    const document: StoredDocument = { contentHash: loaded.contentHash, documentJson: loaded.documentJson, intakeRevision: INTAKE_REVISION };
    await this.#storage.updateSchemaDocument(ref.schemaId, ref.version, document).catch((error: unknown) => {
      this.#options.logger?.warn({ caller: 'schema-registry', err: error }, `${label}: the document read again was not stored; it is read again at the next start`);
    });
    return loaded.documentJson;
  }

  /** Metadata and registered text (UTF-8 bytes) of a version (latest when `version` is empty). */
  async getContentBytes(schemaId: string, version = ''): Promise<{ metadata: SchemaVersionSummary; content: Buffer }> {
    await this.readThrough(schemaId, version);
    const summary = this.#requireSummary(schemaId, version);
    const content = await this.#storage.getSchemaContentBytes(summary.schemaId, summary.version);
    if (content === undefined) throw schemaVersionNotFound();
    return { metadata: summary, content };
  }

  /**
   * On a store shared with other replicas, a version registered elsewhere may not have reached this
   * index yet: a miss (unknown id, or unknown version) reads the id's versions from storage before
   * anyone answers "not found". Embedded stores have one writer, so a miss there is final.
   */
  async readThrough(schemaId: string, version = ''): Promise<void> {
    if (!this.#storage.changes) return;
    if (version === '' ? this.#index.has(schemaId) : this.#summary(schemaId, version)) return;
    checkIdentifier('schema_id', schemaId);
    for (const summary of await this.#storage.loadSchemaVersions(schemaId)) this.#indexVersion(summary);
  }

  /**
   * Before a version is chosen: one assigned after "the latest" (#chooseVersion) depends on what
   * the shared store's other replicas may have registered since this index heard (a notification
   * not yet here), so the id's versions are read again. Any other choice needs the id's index only.
   */
  async #readVersionsToChooseFrom(schemaId: string, given: string, infoVersion: string | undefined): Promise<void> {
    const afterLatest = given === '' && infoVersion !== undefined && !isSemanticVersion(infoVersion) && coerceVersion(infoVersion) === undefined;
    if (!afterLatest || !this.#storage.changes || !this.#index.has(schemaId)) {
      await this.readThrough(schemaId);
      return;
    }
    for (const summary of await this.#storage.loadSchemaVersions(schemaId)) this.#indexVersion(summary);
  }

  /** `metadata` without the throw: undefined when the version is not in this replica's index. */
  findSummary(schemaId: string, version: string): SchemaVersionSummary | undefined {
    return this.#summary(schemaId, version);
  }

  /** `versionRef` without the throw: undefined when the version is not in this replica's index. */
  findVersionRef(schemaId: string, version = ''): VersionRef | undefined {
    const versions = this.#index.get(schemaId);
    if (!versions || versions.length === 0) return undefined;
    const summary = version === '' ? versions[versions.length - 1] : this.#summary(schemaId, version);
    return summary && this.#refOf(summary);
  }

  /** `versionRef` after a read-through: for the rare miss of the validation path. */
  async readVersionRef(schemaId: string, version = ''): Promise<VersionRef> {
    await this.readThrough(schemaId, version);
    return this.versionRef(schemaId, version);
  }

  /** Estimated bytes held by the document cache (weighDocument), never over `documentCacheMaxBytes`. */
  get cachedDocumentBytes(): number {
    return this.#documents.weight;
  }

  /** Metadata of a version without touching storage. */
  metadata(schemaId: string, version = ''): SchemaVersionSummary {
    return this.#requireSummary(schemaId, version);
  }

  hasSchema(schemaId: string): boolean {
    return this.#index.has(schemaId);
  }

  versionsOf(schemaId: string): string[] {
    return (this.#index.get(schemaId) ?? []).map((s) => s.version);
  }

  latestVersion(schemaId: string): string | undefined {
    return this.#latestSummary(schemaId)?.version;
  }

  previousVersion(schemaId: string, version: string): string | undefined {
    const versions = this.#index.get(schemaId) ?? [];
    return versions[firstNotBefore(versions, version) - 1]?.version;
  }

  /** Changes whenever the index does: what the schema gauges are counted from (metrics.ts). */
  get indexRevision(): number {
    return this.#indexRevision;
  }

  /**
   * One page of the latest version of every schema id, ascending by id, after the id `after` (the
   * last of the page before), optionally filtered by owner and team; `total` counts all that match.
   * Without a filter a page costs its own ids, found by binary search: building and searching the
   * whole list took 17-35 ms a call at 40,000 ids, and paging through them grew with their square.
   */
  pageLatest(filter: { owner?: string; team?: string }, after: string | undefined, limit: number): { page: SchemaVersionSummary[]; total: number; more: boolean } {
    const ids = this.#sortedIds;
    let at = after === undefined ? 0 : firstIdNotBefore(ids, after);
    if (after !== undefined && ids[at] === after) at++;
    if (!filter.owner && !filter.team) {
      const page = ids.slice(at, at + limit).map((schemaId) => this.#latestSummary(schemaId)!);
      return { page, total: ids.length, more: at + limit < ids.length };
    }
    const page: SchemaVersionSummary[] = [];
    let total = 0;
    let more = false;
    for (let i = 0; i < ids.length; i++) {
      const latest = this.#latestSummary(ids[i]!)!;
      if (filter.owner && latest.ownership.owner !== filter.owner) continue;
      if (filter.team && latest.ownership.team !== filter.team) continue;
      total++;
      if (i < at) continue;
      if (page.length < limit) page.push(latest);
      else more = true;
    }
    return { page, total, more };
  }

  /** What the schema gauges show, in one pass over the index: versions per schema, schemas per owner and per team. */
  gaugeCounts(): { versionsBySchema: Map<string, number>; byOwner: Map<string, number>; byTeam: Map<string, number> } {
    const versionsBySchema = new Map<string, number>();
    const byOwner = new Map<string, number>();
    const byTeam = new Map<string, number>();
    for (const [schemaId, versions] of this.#index) {
      versionsBySchema.set(schemaId, versions.length);
      const { owner, team } = versions.at(-1)!.ownership;
      byOwner.set(owner, (byOwner.get(owner) ?? 0) + 1);
      byTeam.set(team, (byTeam.get(team) ?? 0) + 1);
    }
    return { versionsBySchema, byOwner, byTeam };
  }

  #requireSummary(schemaId: string, version: string): SchemaVersionSummary {
    checkIdentifier('schema_id', schemaId);
    const versions = this.#index.get(schemaId);
    if (!versions || versions.length === 0) throw schemaNotFound(schemaId);
    if (version === '') return versions[versions.length - 1]!;
    const summary = versions.find((s) => s.version === version);
    if (!summary) throw schemaVersionNotFound();
    return summary;
  }

  #summary(schemaId: string, version: string): SchemaVersionSummary | undefined {
    return this.#byVersion.get(schemaId)?.get(version);
  }

  #latestSummary(schemaId: string): SchemaVersionSummary | undefined {
    const versions = this.#index.get(schemaId);
    return versions?.[versions.length - 1];
  }

  /** Another writer (another replica) changed the version between this registration's read and its write. */
  #afterConcurrentWrite(record: SchemaVersionWrite, current: SchemaVersionSummary | undefined, loaded: IntakeResult): RegisterResult {
    if (current) this.#indexVersion(current);
    const label = `schema ${record.schemaId} version ${record.version}`;
    if (current && current.contentHash === record.contentHash && sameOwnership(current.ownership, record.ownership)) {
      return { outcome: 'unchanged', metadata: current, previousVersion: this.previousVersion(record.schemaId, record.version), loaded, versionAssignment: undefined };
    }
    if (current?.ownership.readOnly) {
      throw new SvcError(ErrorCode.READ_ONLY, `${label} is read-only and cannot be updated; register a new version instead`);
    }
    throw new SvcError(
      ErrorCode.CONFLICT,
      `${label} was written at the same time by another registration${current ? ` (now hash ${current.contentHash.slice(0, 12)})` : ''}; nothing was stored: look at it with GetSchema, then register again to replace it`,
    );
  }

  /** A change seen on a shared store: versions are added or replaced, never removed. */
  #applyChange(change: StorageChange): void {
    const summaries = change.type === 'resync' ? change.summaries : [change.summary];
    for (const summary of summaries) {
      const known = this.#summary(summary.schemaId, summary.version);
      // Kept when unchanged: its VersionRef (and the hot path's lookup) stays the same object.
      if (known && known.contentHash === summary.contentHash && known.updatedAt === summary.updatedAt
        && known.revision === summary.revision && sameOwnership(known.ownership, summary.ownership)) continue;
      this.#indexVersion(summary);
    }
  }

  #indexVersion(summary: SchemaVersionSummary): void {
    const versions = this.#index.get(summary.schemaId) ?? [];
    // In version order: found, or put in place, in a logarithmic number of comparisons (a sort on
    // every registration held the main thread hundreds of ms at thousands of versions of one id).
    let at = firstNotBefore(versions, summary.version);
    // Versions that differ only in build metadata (`1.0.0+a`, `1.0.0+b`) compare equal: they sit side by side.
    while (at < versions.length && versions[at]!.version !== summary.version && compareVersions(versions[at]!.version, summary.version) === 0) at++;
    const same = versions[at]?.version === summary.version;
    // A summary read before a write this index already holds (a late notification or resync, after
    // this replica's own write) would move the index back until the next resync.
    if (same && isOlder(summary, versions[at]!)) return;
    if (same) versions[at] = summary;
    else versions.splice(at, 0, summary);
    if (!this.#index.has(summary.schemaId)) {
      this.#sortedIds.splice(firstIdNotBefore(this.#sortedIds, summary.schemaId), 0, summary.schemaId);
      this.#byVersion.set(summary.schemaId, new Map());
    }
    this.#byVersion.get(summary.schemaId)!.set(summary.version, summary);
    this.#index.set(summary.schemaId, versions);
    this.#indexRevision++;
  }
}

/** The index of the first of `versions` (in version order) not before `version`: its place, or where it goes. */
function firstNotBefore(versions: readonly SchemaVersionSummary[], version: string): number {
  let low = 0;
  let high = versions.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compareVersions(versions[middle]!.version, version) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The index of the first of `ids` (ascending, as Array.prototype.sort orders strings) not before `id`. */
function firstIdNotBefore(ids: readonly string[], id: string): number {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (ids[middle]! < id) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * Bytes of a cached document, kept as JSON text: what worker threads take. The main thread never
 * parses it (intake, operation listings, comparisons and fixtures parse on document-task threads).
 */
export function weighDocument(documentJson: string): number {
  return documentJson.length * TEXT_BYTES_PER_CHAR;
}

/** V8 keeps a string at one byte a character, two where any character is outside Latin-1. */
const TEXT_BYTES_PER_CHAR = 2;

/** Versions whose operations are kept: small entries, so the byte budget is what usually bounds them. */
const OPERATION_INDEX_ENTRIES = 4096;
/** Heap of one OperationSummary beside its strings (two objects, an array, their fields): 16,000 operations measured 2.5 MB of heap and count 3.4 MB. */
const OPERATION_SUMMARY_OVERHEAD_BYTES = 160;

/** Estimated bytes of a version's operations. */
export function weighOperations(entry: VersionOperations): number {
  let chars = 0;
  for (const operation of entry.operations) {
    chars += operation.method.length + operation.path.length + operation.operationId.length + operation.summary.length;
    for (const status of operation.statuses) chars += status.length;
  }
  return chars * TEXT_BYTES_PER_CHAR + entry.operations.length * OPERATION_SUMMARY_OVERHEAD_BYTES;
}

/** `1.0` → `1.0.0`, `v2` → `2.0.0`, `v1.2.3-rc.1` → `1.2.3-rc.1`; undefined where the meaning is not clear (`2024-05-01`, `beta`). */
export function coerceVersion(infoVersion: string): string | undefined {
  const withoutV = /^[vV]/.test(infoVersion) ? infoVersion.slice(1) : infoVersion;
  if (withoutV !== infoVersion && isSemanticVersion(withoutV)) return withoutV;
  const parts = /^(\d{1,9})(?:\.(\d{1,9}))?(?:\.(\d{1,9}))?$/.exec(withoutV);
  if (!parts) return undefined;
  const version = [parts[1], parts[2] ?? '0', parts[3] ?? '0'].map((part) => String(Number(part))).join('.');
  return isSemanticVersion(version) ? version : undefined;
}

function versionAssignment(message: string): VersionAssignment {
  return { code: 'VERSION_ASSIGNED', pointer: '/info/version', message };
}

function isOlder(summary: SchemaVersionSummary, than: SchemaVersionSummary): boolean {
  return summary.revision !== undefined && than.revision !== undefined && summary.revision < than.revision;
}

function cacheKey(schemaId: string, version: string, hash: string): string {
  return `${schemaId}@${version}#${hash}`;
}
