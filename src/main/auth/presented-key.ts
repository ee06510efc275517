/**
 * The API key a call presents: gRPC metadata `x-api-key: <key>` or `authorization: Bearer <key>`.
 * An empty value counts as no key; two different keys, or an authorization scheme other than
 * Bearer, count as an invalid key (never guess which one was meant).
 */
import type { Metadata } from '@grpc/grpc-js';
import { API_KEY_METADATA_KEY } from '@svc/client/protocol';

export const API_KEY_HEADER = API_KEY_METADATA_KEY;
export const AUTHORIZATION_HEADER = 'authorization';

export type PresentedKey =
  | { kind: 'key'; key: string }
  | { kind: 'missing' }
  | { kind: 'malformed'; detail: string };

const BEARER = /^Bearer(?:[ \t]+(\S*))?[ \t]*$/i;

export function presentedKey(metadata: Metadata): PresentedKey {
  const candidates = new Set<string>();
  for (const value of metadata.get(API_KEY_HEADER)) {
    const text = String(value).trim();
    if (text !== '') candidates.add(text);
  }
  for (const value of metadata.get(AUTHORIZATION_HEADER)) {
    const text = String(value).trim();
    if (text === '') continue;
    const bearer = BEARER.exec(text);
    if (!bearer) return { kind: 'malformed', detail: 'authorization metadata must use the Bearer scheme' };
    if (bearer[1]) candidates.add(bearer[1]);
  }
  if (candidates.size === 0) return { kind: 'missing' };
  if (candidates.size > 1) return { kind: 'malformed', detail: 'more than one API key presented' };
  return { kind: 'key', key: [...candidates][0]! };
}

/** A copy without the key headers, so nothing past authentication can log or forward them. */
export function withoutCredentials(metadata: Metadata): Metadata {
  const copy = metadata.clone();
  copy.remove(API_KEY_HEADER);
  copy.remove(AUTHORIZATION_HEADER);
  return copy;
}
