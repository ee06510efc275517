/**
 * Environments are known things: `dev`, `staging` and `prod` always exist; any other exists once it
 * is created (CreateEnvironment), or implicitly on a server that allows unknown environments, when a
 * deployment or consumer registration first names it. CanIDeploy, RegisterConsumer and
 * RecordDeployment against an unknown environment are refused with the known ones listed, so a
 * misspelt `--env prdo` can never answer "safe" for want of consumers to check.
 *
 * Read from storage on every use (environments are few): replicas sharing a database agree at once.
 */
import { ErrorCode, SvcError, limitExceeded } from '../../shared/errors';
import { BUILT_IN_ENVIRONMENTS, checkEnvironment, isBuiltInEnvironment } from '../../shared/identifiers';
import { LIMITS } from '../../shared/limits';
import type { EnvironmentOrigin, EnvironmentRecord, Storage } from '../storage/storage';

export interface EnvironmentView {
  name: string;
  description: string;
  builtIn: boolean;
  /** Unix seconds; 0 for the built-in ones. */
  createdAt: number;
  origin: EnvironmentOrigin | 'built-in';
}

export interface EnvironmentRegistryOptions {
  /** Accept any well-formed environment name, creating it on first use (the behaviour before environments were known). */
  allowUnknown: boolean;
  /** Clock in Unix seconds; injectable for tests. */
  now: () => number;
}

const DEFAULT_OPTIONS: EnvironmentRegistryOptions = Object.freeze({
  allowUnknown: false,
  now: () => Math.floor(Date.now() / 1000),
});

/** Description of an environment made by its first use; at most this long. */
const MAX_DESCRIPTION_CHARS = 500;
/**
 * Known environments named in the refusal of an unknown one; ListEnvironments lists them all. The
 * refusal travels as a gRPC status message, in an HTTP/2 trailer: with 3,000 environments listed
 * (195 KB) no client could read it, the call hung and so did every later call on its connection.
 */
const MAX_LISTED_ENVIRONMENTS = 20;

export class EnvironmentRegistry {
  readonly #storage: Storage;
  readonly #options: EnvironmentRegistryOptions;

  constructor(storage: Storage, options: Partial<EnvironmentRegistryOptions> = {}) {
    this.#storage = storage;
    this.#options = { ...DEFAULT_OPTIONS, ...options };
  }

  get allowsUnknown(): boolean {
    return this.#options.allowUnknown;
  }

  /** The built-in environments first (dev, staging, prod), then the others by name. */
  async list(): Promise<EnvironmentView[]> {
    const stored = (await this.#storage.listEnvironments()).filter((record) => !isBuiltInEnvironment(record.name));
    return [...BUILT_IN_ENVIRONMENTS.map(builtInView), ...stored.map(storedView)];
  }

  /** Creates the environment; `created: false` when it already existed (the call is idempotent). */
  async create(name: string, description: string, actor: string): Promise<{ created: boolean; environment: EnvironmentView }> {
    checkEnvironment('name', name);
    if (description.length > MAX_DESCRIPTION_CHARS) {
      throw new SvcError(ErrorCode.INVALID_ARGUMENT, `description is ${description.length} characters, over the limit of ${MAX_DESCRIPTION_CHARS}`);
    }
    if (isBuiltInEnvironment(name)) return { created: false, environment: builtInView(name) };
    const existing = (await this.#roomFor(name)).find((stored) => stored.name === name);
    if (existing) return { created: false, environment: storedView(existing) };
    const record: EnvironmentRecord = { name, description, origin: 'created', createdAt: this.#options.now(), createdBy: actor };
    if (await this.#storage.createEnvironment(record)) return { created: true, environment: storedView(record) };
    // Another call (or replica) created it between the read and the write: answer with what it stored.
    const winner = (await this.#storage.listEnvironments()).find((stored) => stored.name === name);
    return { created: false, environment: storedView(winner ?? record) };
  }

  /**
   * Removes an environment nothing depends on any more: built-in ones never, and not while consumers
   * are registered there or a schema version is recorded as deployed there (its gate would vanish).
   * The store checks and deletes in one step, and refuses registrations and deployments into an
   * environment it no longer holds, so a write racing the delete (another replica's) fails instead
   * of landing in a deleted environment.
   */
  async delete(name: string): Promise<void> {
    checkEnvironment('name', name);
    if (isBuiltInEnvironment(name)) {
      throw new SvcError(ErrorCode.FAILED_PRECONDITION, `environment ${name} is built in (${BUILT_IN_ENVIRONMENTS.join(', ')}) and cannot be deleted`);
    }
    await this.require(name, { create: false });
    const deletion = await this.#storage.deleteEnvironment(name);
    if (deletion.outcome === 'in-use') {
      const uses = [
        deletion.consumers > 0 ? `${deletion.consumers} consumer registration(s) (deregister them first)` : '',
        deletion.deployments > 0 ? `${deletion.deployments} recorded deployment(s) (record their undeployment first)` : '',
      ].filter(Boolean).join(' and ');
      throw new SvcError(ErrorCode.FAILED_PRECONDITION, `environment ${name} is still in use: ${uses}`);
    }
    // Deleted by another call since the check above: refused as any unknown environment is.
    if (deletion.outcome === 'not-found') await this.require(name, { create: false });
  }

  /**
   * Passes when the environment is known. An unknown one is refused with the known ones listed,
   * unless the server allows unknown environments: then a write (`create` with its origin) records
   * it and a read simply goes on. True when this call created it (the caller audits it); a write
   * creates it only once the rest of the call is known to be valid, so a refused call creates nothing.
   */
  async require(name: string, use: { create: false } | { create: true; origin: EnvironmentOrigin; actor: string }): Promise<boolean> {
    checkEnvironment('environment', name);
    if (isBuiltInEnvironment(name)) return false;
    const stored = await this.#storage.listEnvironments();
    if (stored.some((record) => record.name === name)) return false;
    if (this.#options.allowUnknown) {
      if (!use.create) return false;
      await this.#roomFor(name, stored);
      return this.#storage.createEnvironment({ name, description: '', origin: use.origin, createdAt: this.#options.now(), createdBy: use.actor });
    }
    const known = [...BUILT_IN_ENVIRONMENTS, ...stored.map((record) => record.name).filter((known) => !isBuiltInEnvironment(known))];
    const listed = known.length > MAX_LISTED_ENVIRONMENTS
      ? `${known.slice(0, MAX_LISTED_ENVIRONMENTS).join(', ')} and ${known.length - MAX_LISTED_ENVIRONMENTS} more (svc environment list)`
      : known.join(', ');
    throw new SvcError(
      ErrorCode.ENVIRONMENT_NOT_FOUND,
      `environment "${name}" is not known; known environments: ${listed}. Check the spelling, or create it first (svc environment create ${name})`,
    );
  }

  /** The stored environments, when `name` is one of them or one more fits under maxEnvironments; else LIMIT_EXCEEDED. */
  async #roomFor(name: string, stored?: readonly EnvironmentRecord[]): Promise<readonly EnvironmentRecord[]> {
    const records = stored ?? await this.#storage.listEnvironments();
    const custom = records.filter((record) => !isBuiltInEnvironment(record.name));
    if (custom.length >= LIMITS.maxEnvironments && !custom.some((record) => record.name === name)) {
      throw limitExceeded(`${custom.length} environments besides ${BUILT_IN_ENVIRONMENTS.join(', ')} exist, the limit (maxEnvironments); environment ${name} was not created: delete one that is no longer used (svc environment delete)`);
    }
    return records;
  }
}

function builtInView(name: string): EnvironmentView {
  return { name, description: '', builtIn: true, createdAt: 0, origin: 'built-in' };
}

function storedView(record: EnvironmentRecord): EnvironmentView {
  return { name: record.name, description: record.description, builtIn: false, createdAt: record.createdAt, origin: record.origin };
}
