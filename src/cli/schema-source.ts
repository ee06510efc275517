/**
 * Schema arguments of the command line: a local file or an http(s) URL, JSON or YAML either way, read
 * by the client library's schema reader (one reader for the library and the CLI). Only the command
 * line and the client read from such places; the server never fetches anything a schema names.
 */
import { ContractValidatorError } from '@svc/client';
import { SCHEMA_SOURCE_DEFAULTS, readSchemaSource, shownSchemaLocation, type SchemaSourceLimits } from '@svc/client/internal';
import { SvcError, isSvcError, limitExceeded } from '../shared/errors';
import type { LoadedSchema } from '../shared/openapi/load-document';
import { UNANSWERED_CODES, UnansweredError } from './unanswered';

export { isHttpUrl, shownSchemaLocation } from '@svc/client/internal';

/** The text of the schema at `location`, read as is (the server hashes exactly what it receives). */
export async function readSchemaText(location: string, limits: SchemaSourceLimits = SCHEMA_SOURCE_DEFAULTS): Promise<string> {
  try {
    return await readSchemaSource(location, limits);
  } catch (error) {
    if (!(error instanceof ContractValidatorError)) throw error;
    // The reader's INVALID_ARGUMENT is a source that could not be read (no such file, HTTP error...).
    throw error.code === 'RESOURCE_EXHAUSTED' ? limitExceeded(error.details) : new UnansweredError(UNANSWERED_CODES.unreadable, error.details, { cause: error });
  }
}

/** The checked OpenAPI document at `location`; messages name the location (compare reads two). */
export async function loadSchemaFrom(location: string): Promise<LoadedSchema> {
  return loadSchemaText(await readSchemaText(location), shownSchemaLocation(location));
}

/** The checked OpenAPI document of a text read from `location` (named in messages). */
export async function loadSchemaText(text: string, location: string): Promise<LoadedSchema> {
  try {
    // Loaded on use: the OpenAPI readers are the heaviest modules of the command line.
    const { loadSchema } = await import('../shared/openapi/load-document');
    return await loadSchema(text);
  } catch (error) {
    if (isSvcError(error)) throw new SvcError(error.code, `${location}: ${error.message}`, { cause: error });
    throw error;
  }
}
