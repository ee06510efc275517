/**
 * The gRPC server's TCP listener. grpc-js binds its own HTTP/2 server, which keeps a connection that
 * never completes the HTTP/2 preface open for as long as the peer likes (50 of them exhaust a 256
 * descriptor limit; 20 that sent one byte were still open after 330 s, past the idle limit). Here the
 * server listens itself and hands every connection to grpc-js through its connection injector,
 * resetting the ones whose HTTP/2 session has not started within `prefaceTimeoutMs`: silent, one
 * byte, half a preface or a stalled TLS handshake, all alike. The same HTTP/2 server's streams are
 * followed for the bytes of messages not yet whole (partial-messages.ts), compressed ones also while
 * they are decompressed (decompressed-messages.ts). A client address may hold
 * at most `maxConnectionsPerPeer` connections: under a 256-descriptor limit, 240 connections of one
 * host that completed the preface and sent nothing more kept every other client out for the
 * 5 minutes before they counted as idle, and the host could open them again. It may have at most
 * `maxCallsPerPeer` calls in flight, all its connections together: 256 connections of 256 streams that
 * sent only their headers held 65,536 calls (617 MB) and stalled other callers for seconds. At that
 * limit its connections are told to open no new stream, which Node's HTTP/2 library then refuses
 * without running any JavaScript.
 */
import http2 from 'node:http2';
import net from 'node:net';
import type * as grpc from '@grpc/grpc-js';
import { LIMITS } from '../shared/limits';
import { guardDecompressedMessages } from './decompressed-messages';
import { resetForLimit } from './limit-resets';
import { guardPartialMessages, type PartialMessageLimits, type PartialMessageReset } from './partial-messages';
import { guardUnsentAnswers, type UnsentAnswerLimits, type UnsentAnswerReset } from './unsent-answers';

export interface GrpcListener {
  /** The bound port (the one asked for, or the one picked for 0). */
  port: number;
  /** Bytes of request messages begun but not yet whole, all connections together. */
  partialMessageBytes(): number;
  /** Stops accepting connections; grpc-js closes the established ones on shutdown. Idempotent. */
  close(): Promise<void>;
}

export interface GrpcListenerOptions {
  host: string;
  port: number;
  credentials: grpc.ServerCredentials;
  /** 0 turns the preface timeout off. */
  prefaceTimeoutMs: number;
  /** Open connections from one address; 0 turns the limit off. */
  maxConnectionsPerPeer: number;
  /** Addresses the limit does not apply to (trusted proxies: every client behind one shares its address). */
  unlimitedPeer: (address: string) => boolean;
  /** A connection reset for being one too many from its address. */
  onConnectionRefused: (address: string) => void;
  /** Calls in flight from one address, all its connections together; 0 turns the limit off. */
  maxCallsPerPeer: number;
  /** A call reset for being one too many in flight from its address. */
  onCallRefused: (address: string) => void;
  /** An address reached maxCallsPerPeer: its connections were told to open no new call until it is down to three quarters of it. */
  onPeerAtCallLimit: (address: string) => void;
  partialMessages: PartialMessageLimits;
  onPartialMessageReset: (reset: PartialMessageReset) => void;
  unsentAnswers: UnsentAnswerLimits;
  onUnsentAnswerReset: (reset: UnsentAnswerReset) => void;
}

export function listenForGrpc(server: grpc.Server, options: GrpcListenerOptions): Promise<GrpcListener> {
  const { injector, http2Server } = createInjector(server, options.credentials);
  const partialMessages = guardPartialMessages(http2Server, options.partialMessages, options.onPartialMessageReset);
  guardDecompressedMessages(http2Server, partialMessages);
  if (options.maxCallsPerPeer > 0) limitCallsPerPeer(http2Server, options);
  const unsentAnswers = guardUnsentAnswers(http2Server, options.unsentAnswers, options.onUnsentAnswerReset);
  /** Connections whose preface has not arrived, by their address pair (the one key both ends of the wait can read). */
  const awaitingPreface = new Map<string, NodeJS.Timeout>();
  const forget = (key: string, timer: NodeJS.Timeout) => {
    clearTimeout(timer);
    // A reset peer may reconnect from the same port before this socket's 'close': keep the newer entry.
    if (awaitingPreface.get(key) === timer) awaitingPreface.delete(key);
  };
  // The signal is the session's first SETTINGS frame from the peer ('remoteSettings'): nghttp2 reports
  // it only after the 24-byte client magic and a whole SETTINGS frame (the client connection preface,
  // RFC 9113 §3.4), and for TLS only after the handshake. Counting bytes read would keep a peer that
  // sends 24 bytes of anything, or a few TLS records; a session's 'connect' fires as soon as grpc-js
  // has the socket, before a byte arrives.
  if (options.prefaceTimeoutMs > 0) {
    http2Server.on('session', (session) => {
      // session.socket is the accepted socket (plaintext) or the TLS socket over it: both give its addresses.
      const key = addressPairOf(session.socket);
      const timer = key === undefined ? undefined : awaitingPreface.get(key);
      if (key !== undefined && timer !== undefined) session.once('remoteSettings', () => forget(key, timer));
    });
  }
  const connectionsByPeer = new Map<string, number>();
  const tcp = net.createServer({ noDelay: true }, (socket) => {
    const peer = socket.remoteAddress;
    if (options.maxConnectionsPerPeer > 0 && peer !== undefined && !options.unlimitedPeer(peer)) {
      const open = connectionsByPeer.get(peer) ?? 0;
      if (open >= options.maxConnectionsPerPeer) {
        socket.resetAndDestroy();
        options.onConnectionRefused(peer);
        return;
      }
      connectionsByPeer.set(peer, open + 1);
      socket.once('close', () => {
        const left = connectionsByPeer.get(peer)! - 1;
        if (left === 0) connectionsByPeer.delete(peer);
        else connectionsByPeer.set(peer, left);
      });
    }
    const key = options.prefaceTimeoutMs > 0 ? addressPairOf(socket) : undefined;
    if (key !== undefined) {
      // A reset, not a FIN: grpc-js's HTTP/2 session holds the socket, and only a reset ends it for the peer.
      const timer = setTimeout(() => socket.resetAndDestroy(), options.prefaceTimeoutMs);
      timer.unref();
      awaitingPreface.set(key, timer);
      socket.once('close', () => forget(key, timer));
    }
    injector.injectConnection(socket);
  });
  let closing: Promise<void> | undefined;
  const address = options.host.includes(':') && !options.host.startsWith('[') ? `[${options.host}]:${options.port}` : `${options.host}:${options.port}`;
  return new Promise((resolve, reject) => {
    tcp.once('error', (error) => {
      partialMessages.close();
      unsentAnswers.close();
      reject(new Error(`cannot listen on ${address}: ${error.message}`));
    });
    tcp.listen({ host: options.host.replace(/^\[|\]$/g, ''), port: options.port }, () => {
      resolve({
        port: (tcp.address() as net.AddressInfo).port,
        partialMessageBytes: partialMessages.heldBytes,
        close() {
          partialMessages.close();
          unsentAnswers.close();
          closing ??= new Promise((done) => tcp.close(() => done()));
          return closing;
        },
      });
    });
  });
}

type Http2ServerOfGrpc = http2.Http2Server | http2.Http2SecureServer;

/** An address told to open no new stream is told it may again once its calls in flight are down to this share of maxCallsPerPeer. */
const PEER_STREAMS_REOPEN_AT = 0.75;
/**
 * SETTINGS frames of ours a connection may leave unacknowledged; one more closes it. Node ends a
 * session at maxOutstandingSettings (10, its first SETTINGS frame included) with an 'error' event.
 */
const MAX_UNACKNOWLEDGED_SETTINGS = 4;

/**
 * Resets a stream past `maxCallsPerPeer` calls in flight from its connection's address at once
 * (ENHANCE_YOUR_CALM: gRPC clients see RESOURCE_EXHAUSTED; the call's line names the limit), and
 * closes a connection that has had maxRefusedCallsPerConnection calls reset so. Listeners are per
 * connection, not per call: a stream closes once.
 *
 * An address at its limit is also told, on every connection, that no new stream may open
 * (SETTINGS_MAX_CONCURRENT_STREAMS 0) until its calls in flight are down to PEER_STREAMS_REOPEN_AT of
 * the limit. nghttp2 applies a lowered limit as soon as it is sent, and refuses the streams past it
 * itself (REFUSED_STREAM), before any JavaScript runs for them; gRPC clients hold their next calls
 * meanwhile. Reset here one by one, the streams of 256 connections that each opened 256 at once
 * held every other caller's calls 3.5–3.7 s (about 130 µs a stream in Node's HTTP/2 layer and grpc-js).
 */
function limitCallsPerPeer(http2Server: Http2ServerOfGrpc, options: GrpcListenerOptions): void {
  const callsByPeer = new Map<string, number>();
  /** Each address's open connections, with the SETTINGS frames of ours each has not acknowledged yet. */
  const connectionsByPeer = new Map<string, Map<http2.ServerHttp2Session, { unacknowledged: number }>>();
  /** Addresses whose connections are told that no new stream may open. */
  const closedPeers = new Set<string>();
  const reopenAt = Math.floor(options.maxCallsPerPeer * PEER_STREAMS_REOPEN_AT);
  const details = `its client address already has ${options.maxCallsPerPeer} calls in flight (maxCallsPerPeer)`;
  const tell = (connections: Iterable<[http2.ServerHttp2Session, { unacknowledged: number }]>, maxConcurrentStreams: number) => {
    for (const [session, settings] of connections) {
      if (session.closed || session.destroyed) continue;
      // Node would end the session with an 'error' nobody listens to, which ends the process.
      if (settings.unacknowledged >= MAX_UNACKNOWLEDGED_SETTINGS) {
        closeForCalm(session);
        continue;
      }
      settings.unacknowledged++;
      session.settings({ maxConcurrentStreams }, () => settings.unacknowledged--);
    }
  };
  http2Server.on('session', (session: http2.ServerHttp2Session) => {
    const peer = session.socket?.remoteAddress;
    if (peer === undefined || options.unlimitedPeer(peer)) return;
    let connections = connectionsByPeer.get(peer);
    if (!connections) connectionsByPeer.set(peer, (connections = new Map()));
    const settings = { unacknowledged: 0 };
    connections.set(session, settings);
    if (closedPeers.has(peer)) tell([[session, settings]], 0);
    session.once('close', () => {
      connections.delete(session);
      if (connections.size === 0) connectionsByPeer.delete(peer);
    });
    const release = () => {
      const left = callsByPeer.get(peer)! - 1;
      if (left === 0) callsByPeer.delete(peer);
      else callsByPeer.set(peer, left);
      if (closedPeers.size > 0 && left <= reopenAt && closedPeers.delete(peer)) {
        tell(connectionsByPeer.get(peer) ?? [], LIMITS.maxConcurrentStreamsPerConnection);
      }
    };
    let refused = 0;
    session.on('stream', (stream: http2.ServerHttp2Stream) => {
      const inFlight = callsByPeer.get(peer) ?? 0;
      if (inFlight >= options.maxCallsPerPeer) {
        resetForLimit(stream, details);
        options.onCallRefused(peer);
        if (++refused === LIMITS.maxRefusedCallsPerConnection) closeForCalm(session);
        return;
      }
      callsByPeer.set(peer, inFlight + 1);
      stream.on('close', release);
      if (inFlight + 1 === options.maxCallsPerPeer && !closedPeers.has(peer)) {
        closedPeers.add(peer);
        tell(connections, 0);
        options.onPeerAtCallLimit(peer);
      }
    });
  });
}

/** Closes a connection that broke a limit: GOAWAY ENHANCE_YOUR_CALM, then the session ends. */
function closeForCalm(session: http2.ServerHttp2Session): void {
  // GOAWAY first: destroy(error, code) would emit the error on a session grpc-js listens to for none.
  session.goaway(http2.constants.NGHTTP2_ENHANCE_YOUR_CALM);
  session.destroy();
}

/**
 * grpc-js's connection injector and the HTTP/2 server behind it, whose sessions tell when a peer's
 * preface arrived and whose streams carry the messages. grpc-js exposes that server to no public
 * API; it is the one entry that creating the injector adds to the server's `http2Servers` (grpc-js
 * src/server.ts). If a grpc-js upgrade moves it, the start fails here rather than run unprotected.
 */
function createInjector(server: grpc.Server, credentials: grpc.ServerCredentials) {
  const http2Servers = (server as unknown as { http2Servers?: Map<Http2ServerOfGrpc, unknown> }).http2Servers;
  const before = new Set(http2Servers?.keys());
  const injector = server.createConnectionInjector(credentials);
  const added = [...(http2Servers?.keys() ?? [])].filter((candidate) => !before.has(candidate));
  if (added.length !== 1) {
    throw new Error('this grpc-js version does not show its HTTP/2 server, so the connection preface timeout and the '
      + 'limits on partly received messages cannot be enforced; use the grpc-js version in package-lock.json');
  }
  return { injector, http2Server: added[0]! };
}

/** `local|remote` addresses and ports: unique among open connections of one listener. */
function addressPairOf(socket: net.Socket): string | undefined {
  const { localAddress, localPort, remoteAddress, remotePort } = socket;
  if (remoteAddress === undefined || remotePort === undefined) return undefined; // already closed
  return `${localAddress}:${localPort}|${remoteAddress}:${remotePort}`;
}
