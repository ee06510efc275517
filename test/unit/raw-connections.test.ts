/**
 * The raw-connection helpers see a close the server makes after answering. The metrics port may
 * answer a half-sent request with a 408 before it closes the connection; a socket that left those
 * bytes unread never emitted 'close', and the metrics-port timeout test failed on a loaded CI
 * machine when the 408 path beat the idle timer.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { closedAfter, connectAndWrite } from '../helpers/raw-connections';

test('closedAfter resolves when the server writes an answer and then closes the connection', async () => {
  const server = net.createServer((socket) => {
    socket.once('data', () => {
      socket.write('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
      socket.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { socket, opened } = await connectAndWrite((server.address() as net.AddressInfo).port, Buffer.from('GET /metr'));
    const ms = await closedAfter(socket, opened, 2_000, 'answered then closed');
    assert.ok(ms < 2_000);
  } finally {
    server.close();
  }
});
