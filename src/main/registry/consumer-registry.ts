/**
 * The consumer registry: which consumer, in which environment, was tested against which schema
 * version and uses which endpoints. One registration per `<consumer_id>/<schema_id>/<environment>`;
 * registering again updates the consumer version, the schema version, the endpoints and
 * `last_validated_at`, and keeps `registered_at`. Stored through the storage port.
 */
import { ErrorCode, SvcError, invalidArgument, limitExceeded, messages } from '../../shared/errors';
import { checkEnvironment, checkIdentifier, checkMetadataText } from '../../shared/identifiers';
import { LIMITS } from '../../shared/limits';
import { isHttpMethod } from '../../shared/openapi/document';
import { normalizePathTemplate } from '../../shared/compare';
import { LISTED_ENDPOINT_CHARS, LISTED_USED_FIELD_CHARS, listedChars, usedFieldChars, type ConsumerKey, type ConsumerRecord, type EndpointUsageRecord, type Storage } from '../storage/storage';
import { KeyedMutex } from '../storage/keyed-mutex';
import type { SchemaRegistry } from './schema-registry';

/** Environment of RegisterConsumer and DeregisterConsumer when none is given (spec "Defaults"). */
export const DEFAULT_CONSUMER_ENVIRONMENT = 'dev';

export interface RegisterConsumerInput {
  consumerId: string;
  consumerVersion: string;
  schemaId: string;
  /** Empty: the latest version of the schema. */
  schemaVersion: string;
  /** Empty: `dev`. */
  environment: string;
  usedEndpoints: EndpointUsageRecord[];
  /** Whom listing the schema's operations is counted against (auth/principal.ts `callerOf`). */
  caller: string;
  /** Whether the asker has gone (its call cancelled or past its deadline): the listing is then stopped. */
  gone?: () => boolean;
  /** Runs once every check passed, just before the write (creating the environment on first use). */
  beforeWrite?: () => Promise<void>;
}

export interface RegisterConsumerResult {
  outcome: 'created' | 'updated';
  record: ConsumerRecord;
}

export interface ConsumerRegistryOptions {
  /** Clock in Unix seconds; injectable for tests. */
  now: () => number;
}

/** Unknown endpoints named in one message; the rest are counted. */
const MAX_NAMED_UNKNOWN_ENDPOINTS = 10;

export class ConsumerRegistry {
  readonly #storage: Storage;
  readonly #schemas: SchemaRegistry;
  readonly #now: () => number;
  /**
   * Writes of one schema's registrations in this process, one at a time, so that the schema's total
   * of used fields is checked against the writes before it. Across replicas a registration is one row
   * replaced whole, so two at once leave one of them, as two in a row would (and the total can pass
   * its limit by what registrations on other replicas added meanwhile).
   */
  readonly #writes = new KeyedMutex();

  constructor(storage: Storage, schemas: SchemaRegistry, options: Partial<ConsumerRegistryOptions> = {}) {
    this.#storage = storage;
    this.#schemas = schemas;
    this.#now = options.now ?? (() => Math.floor(Date.now() / 1000));
  }

  /**
   * Checks the input, the schema version and every used endpoint against that version, then
   * stores the registration. Throws SvcError (INVALID_ARGUMENT, SCHEMA_NOT_FOUND,
   * SCHEMA_VERSION_NOT_FOUND) without storing anything when a check fails.
   */
  async register(input: RegisterConsumerInput): Promise<RegisterConsumerResult> {
    checkIdentifier('consumer_id', input.consumerId);
    checkMetadataText('consumer_version', input.consumerVersion);
    checkIdentifier('schema_id', input.schemaId);
    const environment = input.environment === '' ? DEFAULT_CONSUMER_ENVIRONMENT : input.environment;
    checkEnvironment('environment', environment);
    const requested = checkUsedEndpoints(input.usedEndpoints);

    const schema = await this.#schemas.operations(input.schemaId, input.schemaVersion, input.caller, input.gone).catch((error: unknown) => {
      if (error instanceof SvcError && error.code === ErrorCode.SCHEMA_VERSION_NOT_FOUND) {
        throw new SvcError(error.code, `${messages.schemaVersionNotFound()}: ${input.schemaId} has no version ${input.schemaVersion.slice(0, 64)} (registered: ${recentVersions(this.#schemas.versionsOf(input.schemaId))})`);
      }
      throw error;
    });
    const usedEndpoints = matchEndpoints(requested, schema.operations, `${schema.schemaId} version ${schema.version}`);
    // Stored under the schema's templates, which may be longer than the paths sent (`{id}` for a long parameter name).
    const storedChars = usedFieldChars(usedEndpoints);
    if (storedChars > LIMITS.consumerMaxUsedFieldChars) throw usedFieldCharsExceeded(storedChars);

    const key: ConsumerKey = { consumerId: input.consumerId, schemaId: schema.schemaId, environment };
    let outcome: RegisterConsumerResult['outcome'] = 'created';
    const record = await this.save(key, (existing) => {
      if (existing) outcome = 'updated';
      const now = this.#now();
      return {
        ...key,
        consumerVersion: input.consumerVersion,
        schemaVersion: schema.version,
        registeredAt: existing?.registeredAt ?? now,
        lastValidatedAt: now,
        usedEndpoints,
      };
    }, input.beforeWrite);
    return { outcome, record };
  }

  /**
   * Stores the registration `build` makes of the one under `key` (undefined when there is none),
   * within the schema's limit on used fields: every write of a registration goes through here
   * (RegisterConsumer, and RecordDeployment copying one into its environment). `beforeWrite` runs
   * once the limits are checked, just before the write.
   */
  async save(key: ConsumerKey, build: (existing: ConsumerRecord | undefined) => ConsumerRecord, beforeWrite?: () => Promise<void>): Promise<ConsumerRecord> {
    return this.#writes.run(key.schemaId, async () => {
      const existing = await this.#storage.getConsumer(key);
      const record = build(existing);
      await this.#checkSchemaBounds(key, record.usedEndpoints, existing);
      await beforeWrite?.();
      await this.#storage.saveConsumer(record);
      return record;
    });
  }

  /**
   * Refuses a new registration past consumerSchemaMaxRegistrations, and one that would take what all
   * of the schema's registrations weigh in a listing (listedChars) past consumerSchemaMaxUsedFieldChars
   * (what it replaces is not counted twice). A registration that replaces one and does not grow is
   * let through, so a schema already over a limit can be updated.
   */
  async #checkSchemaBounds(key: ConsumerKey, usedEndpoints: readonly EndpointUsageRecord[], existing: ConsumerRecord | undefined): Promise<void> {
    const chars = listedChars(usedEndpoints);
    const replaced = existing ? listedChars(existing.usedEndpoints) : 0;
    if (existing !== undefined && chars <= replaced) return;
    const stored = await this.#storage.consumerUsedFields(key.schemaId);
    if (existing === undefined && stored.registrations >= LIMITS.consumerSchemaMaxRegistrations) {
      throw limitExceeded(
        `${key.schemaId} has ${stored.registrations} consumer registrations, every environment together: `
          + `the limit for one schema (consumerSchemaMaxRegistrations) is ${LIMITS.consumerSchemaMaxRegistrations}; `
          + 'deregister consumers that are no longer deployed',
      );
    }
    if (chars <= replaced) return;
    const others = stored.chars - replaced;
    if (others + chars <= LIMITS.consumerSchemaMaxUsedFieldChars) return;
    throw limitExceeded(
      `the registrations of ${key.schemaId} weigh ${others} characters in a listing, and this one ${chars} (${LISTED_WEIGHT}): `
        + `over the limit of ${LIMITS.consumerSchemaMaxUsedFieldChars} for one schema, every environment together (consumerSchemaMaxUsedFieldChars); `
        + 'deregister consumers that are no longer deployed, or list fewer endpoints or used fields',
    );
  }

  /** The registrations of a schema (which must be registered), optionally of one environment. */
  async list(schemaId: string, environment = ''): Promise<ConsumerRecord[]> {
    await this.#requireSchema(schemaId, environment);
    return this.#storage.listConsumers({ schemaId, environment: environmentFilter(environment) });
  }

  async #requireSchema(schemaId: string, environment: string): Promise<void> {
    checkIdentifier('schema_id', schemaId);
    if (environment !== '') checkEnvironment('environment', environment);
    await this.#schemas.readThrough(schemaId);
    if (!this.#schemas.hasSchema(schemaId)) throw new SvcError(ErrorCode.SCHEMA_NOT_FOUND, messages.schemaNotFound(schemaId));
  }

  /**
   * The registrations ListConsumers answers with. Those that weigh more than
   * consumerListMaxUsedFieldChars in a listing are refused, naming the limit, from the stored counts before any
   * registration is read (one answer too large to send would cost its building and then fail).
   * CanIDeploy reads the same list (`list`) without this limit.
   */
  async listForAnswer(schemaId: string, environment = ''): Promise<ConsumerRecord[]> {
    await this.#requireSchema(schemaId, environment);
    const { registrations, chars } = await this.#storage.consumerUsedFields(schemaId, environmentFilter(environment));
    if (chars > LIMITS.consumerListMaxUsedFieldChars) {
      throw limitExceeded(
        `the ${registrations} consumers of ${schemaId}${environment ? ` in ${environment}` : ''} weigh ${chars} characters in a listing (${LISTED_WEIGHT}), `
          + `over the limit of ${LIMITS.consumerListMaxUsedFieldChars} one answer carries (consumerListMaxUsedFieldChars)${environment ? '' : '; list them one environment at a time'}`,
      );
    }
    return this.#storage.listConsumers({ schemaId, environment: environmentFilter(environment) });
  }

  /** Removes one registration (environment empty: `dev`); CONSUMER_NOT_FOUND when there is none. */
  async deregister(consumerId: string, schemaId: string, environment: string): Promise<ConsumerKey> {
    checkIdentifier('consumer_id', consumerId);
    checkIdentifier('schema_id', schemaId);
    const key: ConsumerKey = { consumerId, schemaId, environment: environment === '' ? DEFAULT_CONSUMER_ENVIRONMENT : environment };
    checkEnvironment('environment', key.environment);
    const removed = await this.#writes.run(schemaId, () => this.#storage.deleteConsumer(key));
    if (!removed) throw new SvcError(ErrorCode.CONSUMER_NOT_FOUND, messages.consumerNotFound());
    return key;
  }
}

/** A listing's environment: empty means every environment. */
function environmentFilter(environment: string): string | undefined {
  return environment === '' ? undefined : environment;
}

/** How listedChars counts, for the messages of the limits on it. */
const LISTED_WEIGHT = `paths and used fields, each endpoint counting ${LISTED_ENDPOINT_CHARS} characters more and each used field ${LISTED_USED_FIELD_CHARS}`;

/** Versions named in a message: the most recent ones. */
const MAX_NAMED_VERSIONS = 10;

export function recentVersions(versions: readonly string[]): string {
  const recent = versions.slice(-MAX_NAMED_VERSIONS).join(', ');
  return versions.length > MAX_NAMED_VERSIONS ? `…, ${recent}` : recent;
}

function usedFieldCharsExceeded(chars: number): SvcError {
  return limitExceeded(`used_endpoints list ${chars} characters of paths and used fields in all, over the limit of ${LIMITS.consumerMaxUsedFieldChars} (consumerMaxUsedFieldChars)`);
}

/** Shape checks on the endpoints as sent; methods come back upper-case. */
function checkUsedEndpoints(endpoints: EndpointUsageRecord[]): EndpointUsageRecord[] {
  if (endpoints.length > LIMITS.consumerMaxEndpoints) {
    throw limitExceeded(`used_endpoints lists ${endpoints.length} endpoints, over the limit of ${LIMITS.consumerMaxEndpoints} (consumerMaxEndpoints)`);
  }
  let totalFields = 0;
  for (const { usedFields } of endpoints) totalFields += usedFields.length;
  const totalChars = usedFieldChars(endpoints);
  if (totalFields > LIMITS.consumerMaxUsedFieldsTotal) {
    throw limitExceeded(`used_endpoints list ${totalFields} used fields in all, over the limit of ${LIMITS.consumerMaxUsedFieldsTotal} (consumerMaxUsedFieldsTotal)`);
  }
  if (totalChars > LIMITS.consumerMaxUsedFieldChars) {
    throw usedFieldCharsExceeded(totalChars);
  }
  return endpoints.map((endpoint, index) => {
    const field = `used_endpoints[${index}]`;
    const method = endpoint.method.trim().toUpperCase();
    if (!isHttpMethod(method.toLowerCase())) {
      throw invalidArgument(`${field}.method "${endpoint.method.slice(0, 16)}" is not an HTTP method (GET, PUT, POST, DELETE, OPTIONS, HEAD, PATCH, TRACE)`);
    }
    if (!endpoint.path.startsWith('/') || endpoint.path.length > LIMITS.validationMaxPathChars) {
      throw invalidArgument(`${field}.path must be an API path template starting with '/' (for example /users/{id}), at most ${LIMITS.validationMaxPathChars} characters`);
    }
    if (endpoint.usedFields.length > LIMITS.consumerMaxUsedFields) {
      throw limitExceeded(`${field}.used_fields lists ${endpoint.usedFields.length} fields, over the limit of ${LIMITS.consumerMaxUsedFields} (consumerMaxUsedFields)`);
    }
    endpoint.usedFields.forEach((usedField, fieldIndex) => checkMetadataText(`${field}.used_fields[${fieldIndex}]`, usedField));
    return { method, path: endpoint.path, usedFields: endpoint.usedFields };
  });
}

/**
 * Each used endpoint must be an operation of the schema version, matched by method and by path
 * template with parameter names ignored; it is stored under the schema's own template. The same
 * endpoint listed twice is kept once, with the union of its used fields.
 */
function matchEndpoints(
  requested: EndpointUsageRecord[],
  operations: ReadonlyArray<{ method: string; path: string }>,
  schemaLabel: string,
): EndpointUsageRecord[] {
  const templates = new Map<string, string>();
  for (const operation of operations) {
    const key = `${operation.method} ${normalizePathTemplate(operation.path)}`;
    if (!templates.has(key)) templates.set(key, operation.path);
  }
  // Fields gathered in a Set per endpoint: merging repeats stays linear in the fields sent.
  const matched = new Map<string, { method: string; path: string; usedFields: Set<string> }>();
  const unknown: string[] = [];
  for (const endpoint of requested) {
    const key = `${endpoint.method} ${normalizePathTemplate(endpoint.path)}`;
    const template = templates.get(key);
    if (template === undefined) {
      unknown.push(`${endpoint.method} ${endpoint.path}`);
      continue;
    }
    const existing = matched.get(key);
    if (existing) for (const usedField of endpoint.usedFields) existing.usedFields.add(usedField);
    else matched.set(key, { method: endpoint.method, path: template, usedFields: new Set(endpoint.usedFields) });
  }
  if (unknown.length > 0) {
    const named = unknown.slice(0, MAX_NAMED_UNKNOWN_ENDPOINTS).join(', ');
    const more = unknown.length > MAX_NAMED_UNKNOWN_ENDPOINTS ? ` and ${unknown.length - MAX_NAMED_UNKNOWN_ENDPOINTS} more` : '';
    const noun = unknown.length === 1 ? 'endpoint is' : 'endpoints are';
    throw invalidArgument(`used_endpoints: ${unknown.length} ${noun} not in schema ${schemaLabel}: ${named}${more}`);
  }
  for (const { method, path, usedFields } of matched.values()) {
    if (usedFields.size > LIMITS.consumerMaxUsedFields) {
      throw limitExceeded(`used_endpoints lists ${method} ${path} more than once, with ${usedFields.size} distinct used fields in all, over the limit of ${LIMITS.consumerMaxUsedFields} per endpoint (consumerMaxUsedFields)`);
    }
  }
  return [...matched.values()].map(({ method, path, usedFields }) => ({ method, path, usedFields: [...usedFields] }));
}
