/** A real svc logger (src/main/logger.ts) writing into memory, for tests that read log lines. */
import type { LogLevel } from '../../src/main/config';
import { createLogger, type Logger } from '../../src/main/logger';

export interface CapturedLogs {
  logger: Logger;
  /** Everything written so far, exactly as it would reach stdout. */
  text(): string;
  /** Every line parsed as JSON (throws if one is not). */
  lines(): Array<Record<string, unknown>>;
  clear(): void;
}

export function captureLogs(level: LogLevel = 'debug'): CapturedLogs {
  let written = '';
  const logger = createLogger(level, { write: (chunk: string) => { written += chunk; } });
  return {
    logger,
    text: () => written,
    lines: () => written.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as Record<string, unknown>),
    clear: () => { written = ''; },
  };
}
