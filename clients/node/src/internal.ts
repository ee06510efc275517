/**
 * `@svc/client/internal`: the client's transport and schema reader, for the svc command line, so the
 * CLI and the library talk to a server one way. Not part of the library's stable API.
 */
export { Transport, callMetadata, channelCredentials } from './transport';
export type { UnaryOperations, ValidationStream } from './transport';
export { SCHEMA_SOURCE_DEFAULTS, isHttpUrl, readSchemaSource, shownSchemaLocation } from './schema-source';
export type { SchemaSourceLimits } from './schema-source';
export { resolveClientOptions } from './client-options';
export type { ResolvedClientOptions } from './client-options';
export { compilePathPatterns } from './middleware/path-patterns';
