/**
 * Who made a call: the name of the API key that authenticated it (the actor of audit lines), and the
 * caller whom shared capacity is counted against. The auth interceptor binds the name to the metadata
 * object it hands on to the handler; a client cannot forge it, since nothing a client sends is read here.
 */
import { isIP } from 'node:net';
import type { Metadata } from '@grpc/grpc-js';

/** The actor of calls on a server without API-key authentication. */
export const ANONYMOUS_ACTOR = 'anonymous';

/** The caller of work the server does on its own behalf, not for a gRPC call. */
export const INTERNAL_CALLER = 'internal';

const keyNames = new WeakMap<Metadata, string>();
/** The client behind a trusted proxy (forwarded-client.ts), when the call came through one. */
const clientHosts = new WeakMap<Metadata, string>();

export function bindKeyName(metadata: Metadata, keyName: string): void {
  keyNames.set(metadata, keyName);
}

export function bindClientHost(metadata: Metadata, host: string): void {
  clientHosts.set(metadata, host);
}

/** The API key name of an authenticated call, or `anonymous`. */
export function actorOf(metadata: Metadata): string {
  return keyNames.get(metadata) ?? ANONYMOUS_ACTOR;
}

/**
 * Whom shared capacity is divided by (the document-task threads): `key:<name>` for a call
 * authenticated with an API key, since key names are the identity teams have; else `peer:<host>`,
 * the client's address without its port, since one client opens many connections (and ports). For
 * a call through a trusted proxy that is the client the proxy forwards for, not the proxy.
 */
export function callerOf(call: { metadata: Metadata; getPeer(): string }): string {
  const keyName = keyNames.get(call.metadata);
  if (keyName !== undefined) return `key:${keyName}`;
  return `peer:${clientHosts.get(call.metadata) ?? peerHost(call.getPeer())}`;
}

/**
 * The host of a gRPC peer string. grpc-js gives `<address>:<port>` with an IPv6 address unbracketed
 * (`::1:51234`), and `unknown` without an address (a Unix socket); C-core style `ipv4:`, `ipv6:[…]:`
 * and `unix:` forms are read too.
 */
export function peerHost(peer: string): string {
  if (peer.startsWith('unix:')) return peer;
  const address = peer.replace(/^ipv[46]:/, '');
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) return bracketed[1]!;
  const withPort = /^(.+):\d+$/.exec(address);
  return withPort && isIP(withPort[1]!) ? withPort[1]! : address;
}
