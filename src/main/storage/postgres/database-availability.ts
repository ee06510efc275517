/**
 * Whether the registry database answers, as the last statement or connection attempt saw it: feeds
 * the `svc_storage_up` gauge and writes one log line per transition (not one per failed call).
 */
import type { Logger } from '../../logger';
import { describeCause } from './database-errors';

export class DatabaseAvailability {
  readonly #logger: Logger | undefined;
  readonly #reportUp: ((up: boolean) => void) | undefined;
  #up = true;

  constructor(logger: Logger | undefined, reportUp: ((up: boolean) => void) | undefined) {
    this.#logger = logger;
    this.#reportUp = reportUp;
    reportUp?.(true);
  }

  get up(): boolean {
    return this.#up;
  }

  markUp(): void {
    if (this.#up) return;
    this.#up = true;
    this.#reportUp?.(true);
    this.#logger?.info({ caller: 'storage/postgres' }, 'registry database reachable again: writes are accepted');
  }

  markDown(error: unknown): void {
    if (!this.#up) return;
    this.#up = false;
    this.#reportUp?.(false);
    this.#logger?.error(
      { caller: 'storage/postgres', cause: describeCause(error) },
      `registry database unreachable (${describeCause(error)}): writes fail with UNAVAILABLE until it is back; validation of registered schemas continues`,
    );
  }
}
