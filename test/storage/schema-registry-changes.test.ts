/**
 * How a replica's index follows a shared store: a summary read before a write the index already
 * holds (a late notification or resync, after this replica's own write) never moves it back.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { INTERNAL_CALLER } from '../../src/main/auth/principal';
import { SchemaRegistry } from '../../src/main/registry/schema-registry';
import { MemoryStorage } from '../../src/main/storage/memory-storage';
import type { ExpectedVersion, SaveResult, SchemaVersionSummary, SchemaVersionWrite, StorageChange, StorageChangeFeed } from '../../src/main/storage/storage';

/** A memory store that numbers its writes and lets the test deliver changes, as a shared one would. */
class SharedStoreDouble extends MemoryStorage {
  readonly #listeners = new Set<(change: StorageChange) => void>();
  #revision = 0;
  readonly changes: StorageChangeFeed = {
    subscribe: (listener) => {
      this.#listeners.add(listener);
      return () => this.#listeners.delete(listener);
    },
  };

  override async saveSchemaVersion(record: SchemaVersionWrite, expected?: ExpectedVersion): Promise<SaveResult> {
    const result = await super.saveSchemaVersion(record, expected);
    return result.saved ? { saved: true, revision: ++this.#revision } : result;
  }

  deliver(change: StorageChange): void {
    for (const listener of this.#listeners) listener(change);
  }
}

/** These registrations come from no gRPC call: their (in-process) intake is counted as the server's own work. */
const IN_PROCESS = { caller: INTERNAL_CALLER };

function document(title: string): string {
  return JSON.stringify({ openapi: '3.0.3', info: { title, version: '1.0.0' }, paths: {} });
}

describe('a schema index following a shared store', () => {
  it('keeps its own later write when an older summary of the version arrives after it', async () => {
    const store = new SharedStoreDouble();
    const registry = await SchemaRegistry.open(store);
    const first = await registry.register({ schemaId: 'users', content: document('first'), version: '1.0.0', ownership: undefined }, IN_PROCESS);
    const firstSummary: SchemaVersionSummary = { ...first.metadata, revision: 1 };
    const second = await registry.register({ schemaId: 'users', content: document('second'), version: '1.0.0', ownership: undefined }, IN_PROCESS);
    assert.equal(second.outcome, 'updated');

    store.deliver({ type: 'schema-version', summary: firstSummary });
    assert.equal(registry.metadata('users', '1.0.0').contentHash, second.metadata.contentHash, 'a late notification');
    store.deliver({ type: 'resync', summaries: [firstSummary] });
    assert.equal(registry.metadata('users', '1.0.0').contentHash, second.metadata.contentHash, 'a late resync');

    const third = { ...firstSummary, contentHash: 'c'.repeat(64), revision: 3 };
    store.deliver({ type: 'schema-version', summary: third });
    assert.equal(registry.metadata('users', '1.0.0').contentHash, third.contentHash, 'a newer write by another replica');
  });

  it('takes every summary where the store keeps no revisions', async () => {
    const store = new MemoryStorage();
    const registry = await SchemaRegistry.open(store);
    const first = await registry.register({ schemaId: 'users', content: document('first'), version: '1.0.0', ownership: undefined }, IN_PROCESS);
    assert.equal(first.metadata.revision, undefined);
    await registry.register({ schemaId: 'users', content: document('second'), version: '1.0.0', ownership: undefined }, IN_PROCESS);
    const shared = new SharedStoreDouble();
    const follower = await SchemaRegistry.open(shared);
    shared.deliver({ type: 'schema-version', summary: first.metadata });
    assert.equal(follower.metadata('users', '1.0.0').contentHash, first.metadata.contentHash);
  });

  it('keeps every version in semantic-version order, whatever order they arrive in', async () => {
    const shared = new SharedStoreDouble();
    const follower = await SchemaRegistry.open(shared);
    const base = (await (await SchemaRegistry.open(new MemoryStorage()))
      .register({ schemaId: 'users', content: document('base'), version: '1.0.0', ownership: undefined }, IN_PROCESS)).metadata;
    const ordered = ['0.9.0', '1.0.0-alpha', '1.0.0-beta.2', '1.0.0-beta.10', '1.0.0', '1.0.1', '1.2.0', '1.10.0', '2.0.0-rc.1', '2.0.0', '10.0.0'];
    // A fixed shuffle: each arrival lands before, between and after those already there.
    const arrival = [6, 0, 10, 3, 8, 1, 5, 9, 2, 7, 4].map((index) => ordered[index]!);
    const revisions = new Set<number>();
    for (const version of arrival) {
      shared.deliver({ type: 'schema-version', summary: { ...base, version } });
      revisions.add(follower.indexRevision);
    }
    assert.equal(revisions.size, arrival.length, 'every new version changes the revision the gauges are counted from');
    assert.equal(follower.latestVersion('users'), '10.0.0');
    ordered.forEach((version, index) => assert.equal(follower.previousVersion('users', version), ordered[index - 1], `before ${version}`));
    assert.equal(follower.previousVersion('users', '1.5.0'), '1.2.0', 'a version not registered falls in its place');

    // Versions that differ only in build metadata compare equal: both are kept, each found.
    shared.deliver({ type: 'schema-version', summary: { ...base, version: '1.2.0+build.7' } });
    shared.deliver({ type: 'schema-version', summary: { ...base, version: '1.2.0+build.7', contentHash: 'd'.repeat(64) } });
    assert.equal(follower.metadata('users', '1.2.0+build.7').contentHash, 'd'.repeat(64));
    assert.equal(follower.metadata('users', '1.2.0').contentHash, base.contentHash);
    assert.equal(follower.latestVersion('users'), '10.0.0');
  });
});
