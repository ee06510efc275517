/** The one mapping from errors to gRPC replies: catalog codes keep their message, internal failures do not leak. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { status } from '@grpc/grpc-js';
import { invalidArgument, schemaNotFound } from '../../src/shared/errors';
import { toServiceError } from '../../src/main/grpc-status';
import { createLogger } from '../../src/main/logger';

function capturingLogger(): { logger: ReturnType<typeof createLogger>; lines: () => Array<Record<string, unknown>> } {
  const chunks: string[] = [];
  const sink = new Writable({ write(chunk, _encoding, done) { chunks.push(String(chunk)); done(); } });
  return { logger: createLogger('info', sink), lines: () => chunks.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l)) };
}

test('catalog errors keep their code and message', () => {
  const { logger, lines } = capturingLogger();
  assert.deepEqual(
    { ...toServiceError(schemaNotFound('users'), logger, 'ListEndpoints'), metadata: undefined },
    { code: status.NOT_FOUND, details: 'Schema not found: users', metadata: undefined },
  );
  assert.equal(toServiceError(invalidArgument('page_size must not be negative'), logger, 'ListSchemas').code, status.INVALID_ARGUMENT);
  assert.equal(lines().length, 0);
});

test('an internal failure is logged in full under an incident id and the client gets only the id', async () => {
  const { logger, lines } = capturingLogger();
  const reply = toServiceError(new Error('SQLITE_CORRUPT: /var/lib/svc/data/svc.sqlite'), logger, 'GetSchema');
  assert.equal(reply.code, status.INTERNAL);
  const incident = /^internal error \(incident ([0-9a-f]{8})\); the server log has the details$/.exec(reply.details ?? '')?.[1];
  assert.ok(incident, reply.details);
  assert.doesNotMatch(reply.details!, /SQLITE|svc\.sqlite/);
  await new Promise((resolve) => setImmediate(resolve));
  logger.flush();
  await new Promise((resolve) => setTimeout(resolve, 20));
  const line = lines().find((l) => l.incident === incident);
  assert.ok(line, 'the failure is logged with the same incident id');
  assert.equal(line.level, 'error');
  assert.equal(line.operation, 'GetSchema');
  assert.match(String(line.msg), /SQLITE_CORRUPT/);
});
