/**
 * Breaking changes between two registered versions, computed once per pair of contents.
 * CompareSchemas, CanIDeploy and RegisterSchema's compatibility check all ask through here:
 * CanIDeploy asks the same question for every consumer and every pipeline run. The comparison
 * itself runs on a comparison thread; the main thread reads only the index (hashes) and,
 * on a miss, the documents' JSON text.
 */
import { LIMITS } from '../../shared/limits';
import { breakingChangeChars, type BreakingChangeRecord } from '../../shared/compare';
import type { Metrics } from '../metrics';
import { LruCache } from '../../shared/lru-cache';
import type { SchemaRegistry } from '../registry/schema-registry';
import type { Comparisons } from './comparisons';

/** `caller` is whom a comparison that is not cached is counted against, `gone` whether its call has gone (DocumentTaskPool.run). */
export type CompareVersions = (schemaId: string, oldVersion: string, newVersion: string, caller: string, gone?: () => boolean) => Promise<BreakingChangeRecord[]>;

export function createVersionComparisons(parts: { schemas: SchemaRegistry; comparisons: Comparisons; metrics: Metrics }): CompareVersions {
  const { schemas, comparisons, metrics } = parts;
  const results = new LruCache<string, BreakingChangeRecord[]>(LIMITS.compareCacheEntries, {
    maxWeight: LIMITS.compareCacheMaxChars,
    weigh: (changes) => changes.reduce((chars, change) => chars + breakingChangeChars(change), 0),
  });
  return async (schemaId, oldVersion, newVersion, caller, gone) => {
    const key = `${schemas.versionRef(schemaId, oldVersion).hash}>${schemas.versionRef(schemaId, newVersion).hash}`;
    const cached = results.get(key);
    if (cached) return cached;
    const [oldSource, newSource] = await Promise.all([schemas.documentSource(schemaId, oldVersion), schemas.documentSource(schemaId, newVersion)]);
    const changes = await comparisons.compare(
      { hash: oldSource.ref.hash, documentJson: oldSource.documentJson },
      { hash: newSource.ref.hash, documentJson: newSource.documentJson },
      caller,
      gone,
    );
    results.set(`${oldSource.ref.hash}>${newSource.ref.hash}`, changes);
    // Counted when found, not each time a cached answer is served (CI jobs poll can-i-deploy).
    for (const change of changes) metrics.breakingChangesDetected.labels(change.type).inc();
    return changes;
  };
}
