/**
 * Every limit of the service, as one frozen table of named defaults with units in the names.
 * Each is enforced at the edge where the input arrives, with a message that names the limit.
 */
export const LIMITS = Object.freeze({
  /** Largest schema text accepted (GitHub's REST API description is about 13 MB). */
  maxSchemaBytes: 32 * 1024 * 1024, // 32 MiB
  /** Largest gRPC message received; above maxSchemaBytes so the schema limit answers first. */
  maxGrpcMessageBytes: 48 * 1024 * 1024, // 48 MiB
  /** Deepest nesting of arrays and objects in a schema document. */
  maxSchemaDepth: 256,
  /** YAML aliases allowed in one document (the `yaml` package's guard against alias bombs). */
  maxYamlAliases: 100,
  /** Operations (method + path) in one schema. */
  maxOperations: 20_000,
  /** Longest schema id, consumer id or other identifier. */
  maxIdLength: 128,
  /** Longest free-text metadata field (owner, team, contact e-mail, versions). */
  maxMetadataLength: 256,
  /** ListSchemas page size when none is given (spec default). */
  defaultPageSize: 100,
  /** Largest ListSchemas page size; larger requests are clamped to it. */
  maxPageSize: 1000,
});

export type Limits = typeof LIMITS;

/** Human-readable byte count for messages that name a limit. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}
