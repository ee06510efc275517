/** What every service handler is given: the server's long-lived parts. */
import type { AuditRecorder } from './audit';
import type { ServerConfig } from './config';
import type { Logger } from './logger';
import type { Metrics } from './metrics';
import type { ComparisonPool } from './compatibility/comparison-pool';
import type { CompareVersions } from './compatibility/version-comparisons';
import type { ValidationPool } from './validation-pool';
import type { ConsumerRegistry } from './registry/consumer-registry';
import type { SchemaRegistry } from './registry/schema-registry';
import type { Storage } from './storage/storage';

export interface ServiceContext {
  config: ServerConfig;
  logger: Logger;
  metrics: Metrics;
  storage: Storage;
  schemas: SchemaRegistry;
  /** Consumer registrations (`<consumer_id>/<schema_id>/<environment>`), checked against the schemas. */
  consumers: ConsumerRegistry;
  /** Validation worker threads with the compiled contracts (started before the server listens). */
  pool: ValidationPool;
  /** Breaking-change comparison threads, beside the validation pool so a slow comparison never holds validation. */
  comparisons: ComparisonPool;
  /** Breaking changes between two registered versions: on the comparison thread, cached per pair of contents. */
  compareVersions: CompareVersions;
  /** Writes an audit line and counts it: `ctx.audit('schema_registered', { schemaId, schemaVersion }, call)`. */
  audit: AuditRecorder;
}
