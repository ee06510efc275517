/**
 * Raw TCP connections to a test server, for the tests of connections that never complete the HTTP/2
 * preface (plaintext and TLS alike) or, on the metrics port, a request: open one and write some bytes,
 * then time when the server closes it.
 */
import net from 'node:net';

/** The 24 bytes every HTTP/2 client sends first (RFC 9113 §3.4), and an empty SETTINGS frame, which completes the preface. */
export const CLIENT_MAGIC = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
export const EMPTY_SETTINGS_FRAME = Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0]);

/** A raw TCP connection to the server that writes `bytes` once connected, and the time it was opened. */
export function connectAndWrite(port: number, bytes: Buffer): Promise<{ socket: net.Socket; opened: number }> {
  return writeOnceOpen(net.connect(port, '127.0.0.1'), 'connect', bytes);
}

/** Writes `bytes` on `socket` once it emits `ready` (`connect`, or `secureConnect` for TLS); the time it did. */
export async function writeOnceOpen<S extends net.Socket>(socket: S, ready: 'connect' | 'secureConnect', bytes: Buffer): Promise<{ socket: S; opened: number }> {
  socket.on('error', () => undefined); // the server resets it
  // Read and drop what the server answers (a 408 on the metrics port): unread bytes would hold back
  // the socket's 'end', and so its 'close', though the server has closed the connection.
  socket.resume();
  await new Promise<void>((resolve, reject) => {
    socket.once(ready, resolve);
    socket.once('close', () => reject(new Error(`closed before ${ready}`)));
  });
  const opened = performance.now();
  if (bytes.length > 0) socket.write(bytes);
  return { socket, opened };
}

/** Milliseconds from `opened` to the socket's close; rejects if it is still open after `withinMs`. */
export function closedAfter(socket: net.Socket, opened: number, withinMs: number, label: string): Promise<number> {
  if (socket.destroyed) return Promise.resolve(performance.now() - opened);
  return new Promise((resolve, reject) => {
    const guard = setTimeout(() => reject(new Error(`${label}: still open after ${withinMs} ms`)), withinMs);
    socket.once('close', () => {
      clearTimeout(guard);
      resolve(performance.now() - opened);
    });
  });
}
