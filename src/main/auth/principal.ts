/**
 * Who made a call: the name of the API key that authenticated it (the actor of audit lines), and the
 * caller whom shared capacity is counted against. The auth interceptor binds the name to the metadata
 * object it hands on to the handler; a client cannot forge it, since nothing a client sends is read
 * for it (a client address is read from `x-forwarded-for` only behind a trusted proxy: client-address.ts).
 */
import type { BlockList } from 'node:net';
import type { Metadata } from '@grpc/grpc-js';
import { clientHost } from './client-address';

/** The actor of calls on a server without API-key authentication. */
export const ANONYMOUS_ACTOR = 'anonymous';

/** The caller of work the server does on its own behalf, not for a gRPC call. */
export const INTERNAL_CALLER = 'internal';

const keyNames = new WeakMap<Metadata, string>();

export function bindKeyName(metadata: Metadata, keyName: string): void {
  keyNames.set(metadata, keyName);
}

/** The API key name of an authenticated call, or `anonymous`. */
export function actorOf(metadata: Metadata): string {
  return keyNames.get(metadata) ?? ANONYMOUS_ACTOR;
}

/**
 * Whom shared capacity is divided by (the document-task threads): `key:<name>` for a call
 * authenticated with an API key, since key names are the identity teams have; else `peer:<host>`,
 * the client's address without its port, since one client opens many connections (and ports). For
 * a call through one of `trustedProxies` that is the client the proxy forwards for, not the proxy.
 */
export function callerOf(call: { metadata: Metadata; getPeer(): string }, trustedProxies: BlockList | undefined): string {
  const keyName = keyNames.get(call.metadata);
  if (keyName !== undefined) return `key:${keyName}`;
  return `peer:${clientHost(call.getPeer(), call.metadata, trustedProxies)}`;
}
