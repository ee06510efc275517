/**
 * Raw TCP connections to a test server, for the tests of connections that never complete the HTTP/2
 * preface (plaintext and TLS alike) or, on the metrics port, a request: open one and write some bytes,
 * then time when the server closes it. And raw HTTP/2 frames, for clients that ignore what the server
 * asks of them (its SETTINGS).
 */
import net from 'node:net';

/** HTTP/2 frame types and error codes the raw-frame tests use (RFC 9113 §6, §7). */
export const H2 = Object.freeze({
  HEADERS: 0x1, RST_STREAM: 0x3, SETTINGS: 0x4, GOAWAY: 0x7,
  END_HEADERS: 0x4, ACK: 0x1,
  SETTINGS_MAX_CONCURRENT_STREAMS: 0x3,
  CANCEL: 0x8, REFUSED_STREAM: 0x7, ENHANCE_YOUR_CALM: 0xb,
});

export interface H2Frame {
  type: number;
  flags: number;
  streamId: number;
  payload: Buffer;
}

export function h2Frame(type: number, flags: number, streamId: number, payload = Buffer.alloc(0)): Buffer {
  const header = Buffer.alloc(9);
  header.writeUIntBE(payload.length, 0, 3);
  header[3] = type;
  header[4] = flags;
  header.writeUInt32BE(streamId, 5);
  return Buffer.concat([header, payload]);
}

/** The 24 bytes every HTTP/2 client sends first (RFC 9113 §3.4), and an empty SETTINGS frame, which completes the preface. */
export const CLIENT_MAGIC = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
export const EMPTY_SETTINGS_FRAME = h2Frame(H2.SETTINGS, 0, 0);

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

/** A string as an HPACK literal: its length (under 127) and its bytes, no Huffman coding. */
function hpackString(text: string): Buffer {
  return Buffer.concat([Buffer.from([text.length]), Buffer.from(text)]);
}

/**
 * A HEADERS frame that opens a ValidateInteraction call on `streamId` and sends nothing more (HPACK
 * static-table entries and literals never indexed, so every frame is the same whatever came before).
 */
export function callHeadersFrame(streamId: number): Buffer {
  const block = Buffer.concat([
    Buffer.from([0x83, 0x86]), // :method POST, :scheme http
    Buffer.from([0x04]), hpackString('/svc.ContractValidator/ValidateInteraction'), // :path
    Buffer.from([0x01]), hpackString('127.0.0.1'), // :authority
    Buffer.from([0x0f, 0x10]), hpackString('application/grpc'), // content-type (static index 31)
    Buffer.from([0x00]), hpackString('te'), hpackString('trailers'),
  ]);
  return h2Frame(H2.HEADERS, H2.END_HEADERS, streamId, block);
}

/** The frames a socket receives, parsed as they arrive (the server sends no preface magic). */
export function collectFrames(socket: net.Socket): H2Frame[] {
  const frames: H2Frame[] = [];
  let buffered = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    while (buffered.length >= 9 && buffered.length >= 9 + buffered.readUIntBE(0, 3)) {
      const length = buffered.readUIntBE(0, 3);
      frames.push({ type: buffered[3]!, flags: buffered[4]!, streamId: buffered.readUInt32BE(5) & 0x7fffffff, payload: buffered.subarray(9, 9 + length) });
      buffered = buffered.subarray(9 + length);
    }
  });
  return frames;
}

/** The values of SETTINGS_MAX_CONCURRENT_STREAMS in the SETTINGS frames received, in order. */
export function maxConcurrentStreamsSettings(frames: readonly H2Frame[]): number[] {
  const values: number[] = [];
  for (const frame of frames) {
    if (frame.type !== H2.SETTINGS || (frame.flags & H2.ACK) !== 0) continue;
    for (let offset = 0; offset + 6 <= frame.payload.length; offset += 6) {
      if (frame.payload.readUInt16BE(offset) === H2.SETTINGS_MAX_CONCURRENT_STREAMS) values.push(frame.payload.readUInt32BE(offset + 2));
    }
  }
  return values;
}
