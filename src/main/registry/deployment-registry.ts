/**
 * Recorded deployments: which schema version runs in each environment, and which consumer versions,
 * with the history of every change. CanIDeploy compares a candidate with the version recorded as
 * deployed in the target environment (the spec's "previous version" when nothing is recorded).
 *
 * A consumer records the deployment of one of its versions; that version must have been registered
 * (RegisterConsumer, in any environment) so the schema version it was tested against and the
 * endpoints it uses are known. Recording it copies that registration into the target environment,
 * which is what CanIDeploy then judges the consumer by.
 */
import { ErrorCode, SvcError, schemaNotFound } from '../../shared/errors';
import { checkIdentifier, checkMetadataText } from '../../shared/identifiers';
import type { ConsumerRecord, DeploymentRecord, Storage } from '../storage/storage';
import type { EnvironmentRegistry } from './environment-registry';
import { recentVersions, type ConsumerRegistry } from './consumer-registry';
import type { SchemaRegistry } from './schema-registry';

/** History entries a listing returns when the caller names no limit, and the most it may ask for. */
export const DEPLOYMENT_HISTORY_LIMITS = Object.freeze({ defaultEntries: 100, maxEntries: 1000 });

export interface DeploymentTarget {
  schemaId: string;
  environment: string;
  /** Empty for the schema itself. */
  consumerId: string;
}

export interface RecordedDeployment {
  record: DeploymentRecord;
  /** The version recorded as deployed there before, if any. */
  replacedVersion: string | undefined;
  /** The environment was created by this recording (a server that allows unknown environments). */
  environmentCreated: boolean;
}

export class DeploymentRegistry {
  readonly #storage: Storage;
  readonly #schemas: SchemaRegistry;
  readonly #environments: EnvironmentRegistry;
  readonly #consumers: ConsumerRegistry;
  readonly #now: () => number;

  constructor(storage: Storage, schemas: SchemaRegistry, environments: EnvironmentRegistry, consumers: ConsumerRegistry, options: { now?: () => number } = {}) {
    this.#storage = storage;
    this.#schemas = schemas;
    this.#environments = environments;
    this.#consumers = consumers;
    this.#now = options.now ?? (() => Math.floor(Date.now() / 1000));
  }

  /** Records `version` (a schema version, or the consumer's version) as deployed in the environment. */
  async record(target: DeploymentTarget, version: string, actor: string): Promise<RecordedDeployment> {
    await this.#checkTarget(target);
    if (version === '') throw new SvcError(ErrorCode.INVALID_ARGUMENT, 'version is required: the version that was deployed');
    checkMetadataText('version', version);
    // Refused at once when unknown; created (where unknown ones are allowed) only once the version
    // checks pass: a refused recording used to leave the environment behind.
    await this.#environments.require(target.environment, { create: false });
    let environmentCreated = false;
    const createEnvironment = async () => {
      environmentCreated = await this.#environments.require(target.environment, { create: true, origin: 'deployment', actor });
    };
    return this.#storage.exclusive(targetKey(target), async () => {
      const replaced = await this.current(target);
      let schemaVersion = '';
      if (target.consumerId === '') {
        await this.#requireSchemaVersion(target.schemaId, version);
        await createEnvironment();
      } else {
        schemaVersion = (await this.#deployConsumer(target, version, createEnvironment)).schemaVersion;
      }
      const record: DeploymentRecord = { ...target, version, action: 'deployed', schemaVersion, recordedAt: this.#now(), recordedBy: actor };
      await this.#storage.appendDeployment(record);
      return { record, replacedVersion: replaced?.version, environmentCreated };
    });
  }

  /** Records that nothing of the schema (or of the consumer) runs in the environment any more. */
  async undeploy(target: DeploymentTarget, actor: string): Promise<DeploymentRecord> {
    await this.#checkTarget(target);
    await this.#environments.require(target.environment, { create: false });
    return this.#storage.exclusive(targetKey(target), async () => {
      const current = await this.current(target);
      const key = target.consumerId === '' ? undefined : { consumerId: target.consumerId, schemaId: target.schemaId, environment: target.environment };
      const registration = key && await this.#storage.getConsumer(key);
      if (!current && !registration) {
        const what = target.consumerId === '' ? `no version of ${target.schemaId} is` : `consumer ${target.consumerId} of ${target.schemaId} is not`;
        throw new SvcError(ErrorCode.FAILED_PRECONDITION, `${what} recorded as deployed in ${target.environment}: nothing to undeploy`);
      }
      const record: DeploymentRecord = { ...target, version: '', action: 'undeployed', schemaVersion: '', recordedAt: this.#now(), recordedBy: actor };
      // The entry first: while the registration (or the deployment) stands, its environment cannot
      // be deleted, so the entry is never refused after the registration is gone. Only the
      // registration read above is removed: one a RegisterConsumer wrote since stays.
      await this.#storage.appendDeployment(record);
      if (key && registration) await this.#storage.deleteConsumer(key, registration);
      return record;
    });
  }

  /** What is deployed now for one target (the schema itself when `consumerId` is empty). */
  async current(target: DeploymentTarget): Promise<DeploymentRecord | undefined> {
    // Its own entries only: a schema's consumers each have theirs, and a deregistered consumer's stay.
    const [deployed] = await this.#storage.currentDeployments(target);
    return deployed;
  }

  async list(schemaId: string, environment: string, limit: number): Promise<{ current: DeploymentRecord[]; history: DeploymentRecord[] }> {
    checkIdentifier('schema_id', schemaId);
    if (environment !== '') await this.#environments.require(environment, { create: false });
    if (!Number.isInteger(limit) || limit < 0 || limit > DEPLOYMENT_HISTORY_LIMITS.maxEntries) {
      throw new SvcError(ErrorCode.INVALID_ARGUMENT, `limit must be from 0 to ${DEPLOYMENT_HISTORY_LIMITS.maxEntries} (0: ${DEPLOYMENT_HISTORY_LIMITS.defaultEntries})`);
    }
    const filter = { schemaId, environment: environment === '' ? undefined : environment };
    const [current, history] = await Promise.all([
      this.#storage.currentDeployments(filter),
      this.#storage.listDeployments(filter, limit === 0 ? DEPLOYMENT_HISTORY_LIMITS.defaultEntries : limit),
    ]);
    return { current, history };
  }

  async #checkTarget(target: DeploymentTarget): Promise<void> {
    checkIdentifier('schema_id', target.schemaId);
    if (target.consumerId !== '') checkIdentifier('consumer_id', target.consumerId);
    await this.#schemas.readThrough(target.schemaId);
    if (!this.#schemas.hasSchema(target.schemaId)) throw schemaNotFound(target.schemaId);
  }

  async #requireSchemaVersion(schemaId: string, version: string): Promise<void> {
    await this.#schemas.readThrough(schemaId, version);
    if (!this.#schemas.versionsOf(schemaId).includes(version)) {
      throw new SvcError(
        ErrorCode.SCHEMA_VERSION_NOT_FOUND,
        `schema version not found: ${schemaId} has no version ${version.slice(0, 64)} (registered: ${recentVersions(this.#schemas.versionsOf(schemaId))}); register it before recording its deployment`,
      );
    }
  }

  /**
   * The registration of this consumer version (the one in the target environment when it is there,
   * else the most recently validated one elsewhere), copied into the target environment.
   */
  async #deployConsumer(target: DeploymentTarget, consumerVersion: string, createEnvironment: () => Promise<void>): Promise<ConsumerRecord> {
    const registrations = (await this.#storage.listConsumers({ schemaId: target.schemaId, consumerId: target.consumerId }))
      .filter((record) => record.consumerVersion === consumerVersion)
      .sort((a, b) => Number(b.environment === target.environment) - Number(a.environment === target.environment) || b.lastValidatedAt - a.lastValidatedAt);
    const tested = registrations[0];
    if (!tested) {
      throw new SvcError(
        ErrorCode.FAILED_PRECONDITION,
        `consumer ${target.consumerId} version ${consumerVersion.slice(0, 64)} is not registered for ${target.schemaId} in any environment: register it where it was tested (svc register-consumer --consumer ${target.consumerId} --version ${consumerVersion.slice(0, 64)} --schema ${target.schemaId} --env dev ...), then record its deployment`,
      );
    }
    if (tested.environment === target.environment) return tested;
    const key = { consumerId: target.consumerId, schemaId: target.schemaId, environment: target.environment };
    return this.#consumers.save(key, (existing) => ({ ...tested, environment: target.environment, registeredAt: existing?.registeredAt ?? this.#now() }), createEnvironment);
  }
}

/**
 * One writer per (schema, environment, consumer), across replicas: "what was deployed before" stays
 * exact, and a deployment and an undeployment of one consumer at once cannot leave it recorded as
 * deployed with its registration deleted (which CanIDeploy would not check). Also the wording of the
 * CONFLICT a replica answers when another holds the target too long.
 */
function targetKey(target: DeploymentTarget): string {
  const subject = target.consumerId === '' ? target.schemaId : `consumer ${target.consumerId} of ${target.schemaId}`;
  return `the deployment of ${subject} in ${target.environment}`;
}
