/** What every service handler is given: the server's long-lived parts. */
import type { ServerConfig } from './config';
import type { Logger } from './logger';
import type { Metrics } from './metrics';
import type { SchemaRegistry } from './registry/schema-registry';
import type { Storage } from './storage/storage';

export interface ServiceContext {
  config: ServerConfig;
  logger: Logger;
  metrics: Metrics;
  storage: Storage;
  schemas: SchemaRegistry;
}
