/**
 * Names and defaults of the wire protocol that client and server must agree on, each defined once.
 */

/** gRPC metadata entry that carries the API key (the server also accepts `authorization: Bearer <key>`). */
export const API_KEY_METADATA_KEY = 'x-api-key';

/** Environment of a consumer registration or deregistration that names none (spec "Defaults"). */
export const DEFAULT_CONSUMER_ENVIRONMENT = 'dev';

/** Environment of a can-i-deploy check that names none (spec "Defaults"). */
export const DEFAULT_DEPLOY_ENVIRONMENT = 'prod';

/** Sizes both ends of a call must respect. */
export const WIRE_LIMITS = Object.freeze({
  /** Largest schema text the server accepts (GitHub's REST API description is about 13 MB). */
  maxSchemaBytes: 32 * 1024 * 1024, // 32 MiB
  /** Largest gRPC message either end receives; above maxSchemaBytes so the schema limit answers first. */
  maxGrpcMessageBytes: 48 * 1024 * 1024, // 48 MiB
});

/** `1.5 MiB`, `12 KiB`, `300 bytes`: sizes in limit messages. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${+(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}
