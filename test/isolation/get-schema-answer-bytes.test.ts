/**
 * Regression: nothing bounded the bytes of GetSchema answers being built and sent at once. 200
 * concurrent GetSchema calls of a 20 MB document took the server from 157 MiB to 4.3 GiB and stalled
 * every other caller 9–13 s; a raw HTTP/2 client advertising a zero window that never read kept the
 * answers in memory (8 GiB with 2 × 200 streams). GetSchema now reserves the document's length
 * against schemaAnswerMaxBytesInFlight before the answer is built and gives it back when the call
 * ends; a call beyond it fails at once with RESOURCE_EXHAUSTED.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http2 from 'node:http2';
import { setTimeout as sleep } from 'node:timers/promises';
import * as grpc from '@grpc/grpc-js';
import { LIMITS } from '../../src/shared/limits';
import { BytesInFlight } from '../../src/main/answer-bytes';
import { startTestServer, type TestServer } from '../helpers/server';

/** Characters of the large document: HELD of them fit the limit, one more does not. */
const DOCUMENT_CHARS = 27 * 1024 * 1024;
const HELD = Math.floor(LIMITS.schemaAnswerMaxBytesInFlight / DOCUMENT_CHARS);

function largeDocument(): string {
  const description = 'x'.repeat(DOCUMENT_CHARS - 100);
  return JSON.stringify({ openapi: '3.0.3', info: { title: 'big', version: '1.0.0', description }, paths: {} });
}

/** One gRPC message frame of a GetSchemaRequest { schema_id }. */
function getSchemaFrame(schemaId: string): Buffer {
  const id = Buffer.from(schemaId);
  const message = Buffer.concat([Buffer.from([0x0a, id.length]), id]);
  const header = Buffer.alloc(5);
  header.writeUInt32BE(message.length, 1);
  return Buffer.concat([header, message]);
}

let server: TestServer;
let documentLength = 0;
before(async () => {
  assert.ok(HELD >= 1 && (HELD + 1) * DOCUMENT_CHARS > LIMITS.schemaAnswerMaxBytesInFlight, 'the document is sized against the limit');
  server = await startTestServer({ workerThreads: 1 });
  const content = largeDocument();
  documentLength = content.length;
  const registered = await server.client.call('RegisterSchema', { schema_id: 'big', schema_content: content, schema_version: '1.0.0' }, { deadlineMs: 120_000 });
  assert.equal(registered.success, true, registered.message);
});
after(() => server.close());

test('BytesInFlight refuses past its limit, lets one oversized reservation through alone, and releases once', () => {
  const bytes = new BytesInFlight(10);
  const first = bytes.tryReserve(6);
  assert.ok(first);
  assert.equal(bytes.tryReserve(6), undefined, 'past the limit');
  const second = bytes.tryReserve(4);
  assert.ok(second, 'up to the limit');
  first();
  first();
  assert.equal(bytes.held, 4, 'a release counts once');
  second();
  const oversized = bytes.tryReserve(25);
  assert.ok(oversized, 'larger than the whole limit, nothing else held');
  assert.equal(bytes.tryReserve(1), undefined);
  oversized();
  assert.equal(bytes.held, 0);
});

test('GetSchema answers held by a client that never reads count against schemaAnswerMaxBytesInFlight until their calls end', async () => {
  const session = http2.connect(`http://${server.address}`, { settings: { initialWindowSize: 0 } });
  session.on('error', () => {});
  try {
    let answered = 0;
    const streams = Array.from({ length: HELD }, () => {
      const stream = session.request({ ':method': 'POST', ':path': '/svc.ContractValidator/GetSchema', 'content-type': 'application/grpc', te: 'trailers' });
      stream.on('error', () => {});
      stream.on('response', () => answered++);
      stream.pause();
      stream.end(getSchemaFrame('big'));
      return stream;
    });
    // Headers go out with the answer's first bytes: each call has reserved its document by then.
    for (let i = 0; i < 600 && answered < HELD; i++) await sleep(50);
    assert.equal(answered, HELD, `${HELD} answers are being sent (each held by the zero window)`);

    const started = performance.now();
    await assert.rejects(
      server.client.call('GetSchema', { schema_id: 'big' }, { deadlineMs: 30_000 }),
      (error: grpc.ServiceError) => {
        assert.equal(error.code, grpc.status.RESOURCE_EXHAUSTED);
        assert.match(error.details, /GetSchema answers, at its limit of 128 MiB \(schemaAnswerMaxBytesInFlight\); retry shortly/);
        return true;
      },
    );
    assert.ok(performance.now() - started < 5_000, 'refused at once');
    streams.forEach((stream) => stream.close(http2.constants.NGHTTP2_CANCEL));
  } finally {
    session.destroy();
  }

  // The cancelled calls gave their bytes back: an ordinary GetSchema is answered in full.
  let content: string | undefined;
  for (let i = 0; i < 50 && content === undefined; i++) {
    try {
      content = (await server.client.call('GetSchema', { schema_id: 'big' }, { deadlineMs: 30_000 })).schema_content;
    } catch (error) {
      if ((error as grpc.ServiceError).code !== grpc.status.RESOURCE_EXHAUSTED) throw error;
      await sleep(100);
    }
  }
  assert.equal(content?.length, documentLength);
});

test('answered GetSchema calls give their bytes back: more calls than the limit holds succeed one after another', async () => {
  for (let i = 0; i < HELD + 2; i++) {
    const response = await server.client.call('GetSchema', { schema_id: 'big' }, { deadlineMs: 30_000 });
    assert.equal(response.found, true);
    assert.equal(response.schema_content.length, documentLength);
  }
  const missing = await server.client.call('GetSchema', { schema_id: 'absent' });
  assert.equal(missing.found, false);
});

test('GetSchema reads at most schemaContentReadsInFlight versions from the store at once; the others wait their turn and are answered', async () => {
  // Before, every call read at once: 300 concurrent calls took every connection of a PostgreSQL pool.
  const storage = server.server.storage;
  const read = storage.getSchemaContentBytes.bind(storage);
  let reading = 0;
  let mostAtOnce = 0;
  storage.getSchemaContentBytes = async (schemaId, version) => {
    mostAtOnce = Math.max(mostAtOnce, ++reading);
    try {
      await sleep(20); // a store that takes its time, as a busy one does
      return await read(schemaId, version);
    } finally {
      reading--;
    }
  };
  try {
    await registerSmall();
    const answers = await Promise.all(Array.from({ length: 24 }, () => server.client.call('GetSchema', { schema_id: 'small' })));
    assert.ok(answers.every((answer) => answer.found), 'every call is answered');
    assert.equal(mostAtOnce, LIMITS.schemaContentReadsInFlight);
  } finally {
    storage.getSchemaContentBytes = read;
  }
});

async function registerSmall(): Promise<void> {
  const content = JSON.stringify({ openapi: '3.0.3', info: { title: 'small', version: '1.0.0' }, paths: {} });
  const registered = await server.client.call('RegisterSchema', { schema_id: 'small', schema_content: content, schema_version: '1.0.0' });
  assert.equal(registered.success, true, registered.message);
}
