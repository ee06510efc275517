/**
 * Who made a call: the name of the API key that authenticated it. The auth interceptor binds it to
 * the metadata object it hands on to the handler; a client cannot forge it, since nothing a client
 * sends is read here.
 */
import type { Metadata } from '@grpc/grpc-js';

/** The actor of calls on a server without API-key authentication. */
export const ANONYMOUS_ACTOR = 'anonymous';

const keyNames = new WeakMap<Metadata, string>();

export function bindKeyName(metadata: Metadata, keyName: string): void {
  keyNames.set(metadata, keyName);
}

/** The API key name of an authenticated call, or `anonymous`. */
export function actorOf(metadata: Metadata): string {
  return keyNames.get(metadata) ?? ANONYMOUS_ACTOR;
}
