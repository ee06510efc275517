import { createHash } from 'node:crypto';

/** Schema ownership as the registry records it (mirrors the proto's SchemaOwnership). */
export interface SchemaOwnershipRecord {
  owner: string;
  team: string;
  contactEmail: string;
  readOnly: boolean;
}

export const EMPTY_OWNERSHIP: SchemaOwnershipRecord = Object.freeze({
  owner: '',
  team: '',
  contactEmail: '',
  readOnly: false,
});

export function sameOwnership(a: SchemaOwnershipRecord, b: SchemaOwnershipRecord): boolean {
  return a.owner === b.owner && a.team === b.team && a.contactEmail === b.contactEmail && a.readOnly === b.readOnly;
}

/** One registered version as the main thread and the worker pools refer to it: the content hash is what workers key compiled contracts by. */
export interface VersionRef {
  schemaId: string;
  version: string;
  hash: string;
}

/** A version's bundled document as JSON text: all a worker thread needs. `ref` may be newer than the one asked for if the version was re-registered. */
export interface VersionDocument {
  ref: VersionRef;
  documentJson: string;
}

/**
 * A registered text: a string, or its UTF-8 bytes as RegisterSchema received them. The server keeps
 * the received bytes in memory shared with its threads: intake and the store read them there, and
 * the main thread neither decodes them nor copies them to each thread (message-codecs.ts).
 */
export type SchemaText = string | Uint8Array;

/** The text as a string (a store that takes only strings: memory, PostgreSQL). */
export function schemaTextString(text: SchemaText): string {
  return typeof text === 'string' ? text : Buffer.from(text.buffer, text.byteOffset, text.byteLength).toString('utf8');
}

/**
 * A registered text's content hash: SHA-256 (hex) of its UTF-8 bytes. Worked out where the text is
 * read (intake, on a document-task thread in the server): 32 MB cost the main thread tens of ms.
 */
export function schemaContentHash(text: SchemaText): string {
  return typeof text === 'string' ? createHash('sha256').update(text, 'utf8').digest('hex') : createHash('sha256').update(text).digest('hex');
}
