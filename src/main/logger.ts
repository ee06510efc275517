/**
 * JSON log lines: `level` (label), `ts` (Unix seconds, fractional), `caller` (the component that
 * wrote the line), `msg`, plus operation context (`operation`, `schemaId`, `method`, `path`). The
 * level comes from LOG_LEVEL (debug, info, warn, error). Secrets never reach a line: the auth
 * interceptor strips API keys from call metadata, and the paths below are redacted wherever they appear.
 */
import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './config';

export type { Logger };

/** Where keys or credentials could sit in a logged object: ours, gRPC metadata, validated HTTP headers. */
export const REDACTED_PATHS = Object.freeze([
  'apiKey', '*.apiKey', 'apiKeys', '*.apiKeys',
  'authorization', '*.authorization', 'headers.authorization', '*.headers.authorization',
  '["x-api-key"]', '*["x-api-key"]', 'headers["x-api-key"]', '*.headers["x-api-key"]',
  'metadata.authorization', 'metadata["x-api-key"]', 'cookie', '*.cookie', 'headers.cookie', '*.headers.cookie',
]);

/** Caller of lines written without one (a child logger's `caller` binding takes precedence). */
const DEFAULT_CALLER = 'svc';

export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      messageKey: 'msg',
      timestamp: () => `,"ts":${Date.now() / 1000}`,
      formatters: { level: (label) => ({ level: label }) },
      // Every line names its writer; bindings are checked so a child's caller is never written twice.
      mixin: (mergeObject, _level, logger) =>
        'caller' in mergeObject || logger.bindings().caller !== undefined ? {} : { caller: DEFAULT_CALLER },
      redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' },
    },
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}
