/** What every service handler is given: the server's long-lived parts. */
import type { BlockList } from 'node:net';
import type { AuditRecorder } from './audit';
import type { ServerConfig } from './config';
import type { Logger } from './logger';
import type { Metrics } from './metrics';
import type { Comparisons } from './compatibility/comparisons';
import type { DocumentTaskPool } from './document-task-pool';
import type { CompareVersions } from './compatibility/version-comparisons';
import type { ValidationPool } from './validation-pool';
import type { ConsumerRegistry } from './registry/consumer-registry';
import type { DeploymentRegistry } from './registry/deployment-registry';
import type { EnvironmentRegistry } from './registry/environment-registry';
import type { SchemaRegistry } from './registry/schema-registry';
import type { Storage } from './storage/storage';
import type { UsageRegistry } from './evidence/usage-registry';
import type { StreamTurns } from './stream-turns';

export interface ServiceContext {
  config: ServerConfig;
  /** `config.trustedProxies` ready to match peers against (auth/client-address.ts); undefined when none is trusted. */
  trustedProxies: BlockList | undefined;
  logger: Logger;
  metrics: Metrics;
  storage: Storage;
  schemas: SchemaRegistry;
  /** Consumer registrations (`<consumer_id>/<schema_id>/<environment>`), checked against the schemas. */
  consumers: ConsumerRegistry;
  /** Known environments (built in, created, or first named by a deployment or registration). */
  environments: EnvironmentRegistry;
  /** Which schema and consumer versions run in each environment, with history. */
  deployments: DeploymentRegistry;
  /** Validation worker threads with the compiled contracts (started before the server listens). */
  pool: ValidationPool;
  /** Threads for one-off work on whole documents (intake, operation listings, comparisons, fixtures), beside the validation lanes. */
  documentTasks: DocumentTaskPool;
  /** Turns of the main thread shared by the streams that carry many messages (stream-turns.ts). */
  streamTurns: StreamTurns;
  /** Breaking changes between two documents, on a document-task thread; identical ones in flight share a task (counted against the first asker). */
  comparisons: Comparisons;
  /** Breaking changes between two registered versions: on the comparison thread, cached per pair of contents. */
  compareVersions: CompareVersions;
  /** Writes an audit line and counts it: `ctx.audit('schema_registered', { schemaId, schemaVersion }, call)`. */
  audit: AuditRecorder;
  /** Recorded usage from real traffic (docs/evidence.md): aggregates and samples per consumer. */
  usage: UsageRegistry;
}
