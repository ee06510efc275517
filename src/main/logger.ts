/**
 * JSON log lines: `level` (label), `ts` (Unix seconds, fractional), `caller` (the component),
 * `msg`, plus operation context (`schemaId`, `method`, `path`). Secrets never reach a line: keys
 * and authorization metadata are redacted wherever they appear.
 */
import pino, { type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './config';

export type { Logger };

export const REDACTED_PATHS = Object.freeze([
  'apiKey', '*.apiKey', 'authorization', '*.authorization', 'x-api-key', '*["x-api-key"]', 'headers.authorization',
  'metadata.authorization', 'metadata["x-api-key"]',
]);

export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: undefined,
      messageKey: 'msg',
      timestamp: () => `,"ts":${Date.now() / 1000}`,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: [...REDACTED_PATHS], censor: '[redacted]' },
    },
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
}

/** A child logger whose lines name the component that wrote them. */
export function componentLogger(logger: Logger, caller: string): Logger {
  return logger.child({ caller });
}
