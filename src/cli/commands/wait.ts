import { setTimeout as sleep } from 'node:timers/promises';
import { Command, Option } from 'clipanion';
import { ClientCommand } from '../client-command';
import { CLI_DEFAULTS } from '../defaults';
import { CATEGORIES } from '../categories';
import { EXIT } from '../exit-codes';
import { normalizeAddress } from '../server-connection';
import { probeHealth } from '../health-probe';
import { parseSeconds } from '../option-values';

export class WaitCommand extends ClientCommand {
  static override paths = [['wait']];
  static override usage = Command.Usage({
    category: CATEGORIES.client,
    description: 'Wait until the server is ready to serve',
    details: `
      Polls the standard gRPC health service (grpc.health.v1.Health/Check) every \`--interval\` seconds until
      it answers SERVING or \`--timeout\` seconds have passed. Use it in CI before the first call to a
      server that was just started.

      Exit code 0: ready; 1: not ready within the time-out (or the code given with --unknown-exit-code:
      a server that never answered is a question without an answer); 2: usage error.
    `,
    examples: [
      ['Wait for a local server (up to 60 s)', '$0 wait'],
      ['Wait up to 2 minutes, checking every 5 seconds, silently', '$0 wait --server svc:9550 --timeout 120 --interval 5 --quiet'],
    ],
  });

  timeout = Option.String('-t,--timeout', String(CLI_DEFAULTS.waitTimeoutSeconds), {
    description: `Seconds to wait before giving up (default ${CLI_DEFAULTS.waitTimeoutSeconds})`,
  });
  interval = Option.String('-i,--interval', String(CLI_DEFAULTS.waitIntervalSeconds), {
    description: `Seconds between two checks (default ${CLI_DEFAULTS.waitIntervalSeconds})`,
  });
  json = Option.Boolean('-j,--json', false, { description: 'Print the outcome as JSON' });
  quiet = Option.Boolean('-q,--quiet', false, { description: 'Print nothing except errors' });

  protected override async run(): Promise<number> {
    const timeoutMs = parseSeconds('--timeout', this.timeout) * 1000;
    const intervalMs = parseSeconds('--interval', this.interval) * 1000;
    const options = this.connectionOptions(timeoutMs / 1000);
    const server = normalizeAddress(options.address);
    const start = Date.now();
    const deadline = start + timeoutMs;
    if (!this.quiet && !this.json) this.print(`Waiting for the svc server at ${server} (up to ${timeoutMs / 1000} s)...`);

    let attempts = 0;
    let lastReason = '';
    for (;;) {
      attempts += 1;
      const probe = await probeHealth({ ...options, timeoutMs: Math.max(deadline - Date.now(), 1) });
      if (probe.serving) return this.report({ ready: true, server, elapsedMs: Date.now() - start, attempts });
      lastReason = probe.reason;
      const pauseMs = Math.min(intervalMs, deadline - Date.now());
      if (pauseMs <= 0) break;
      await sleep(pauseMs);
      if (deadline - Date.now() < CLI_DEFAULTS.waitMinCheckMs) break;
    }
    return this.report({ ready: false, server, elapsedMs: Date.now() - start, attempts, error: lastReason });
  }

  private report(outcome: { ready: boolean; server: string; elapsedMs: number; attempts: number; error?: string }): number {
    const seconds = (outcome.elapsedMs / 1000).toFixed(1);
    const checks = `${outcome.attempts} check${outcome.attempts === 1 ? '' : 's'}`;
    if (this.json) {
      this.printJson({ ready: outcome.ready, server: outcome.server, elapsed_ms: outcome.elapsedMs, attempts: outcome.attempts, ...(outcome.error ? { error: outcome.error } : {}) });
    } else if (outcome.ready) {
      if (!this.quiet) this.print(`The svc server at ${outcome.server} is ready (after ${seconds} s, ${checks})`);
    } else {
      this.printError(`the svc server at ${outcome.server} was not ready within ${this.timeout} s (${checks}; last: ${outcome.error})`);
    }
    return outcome.ready ? EXIT.ok : this.unknownExitCode() ?? EXIT.failure;
  }
}
