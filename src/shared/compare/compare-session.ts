/**
 * The state of one comparison: both documents, cached schema views, memoised schema-pair results,
 * and the work and depth counters that bound it.
 *
 * Memoisation is what makes large documents fast: a component referenced from a thousand
 * operations is compared once. Recursive schemas are cut where a pair is met again while still
 * being compared (its own frame reports what it finds). A result that leaned on such a cut
 * depends on an unfinished ancestor, so it is kept only until that ancestor completes.
 */
import { limitExceeded } from '../errors';
import type { JsonObject, JsonValue } from '../json';
import type { OpenApiDocument } from '../openapi/document';
import { resolvePointer } from '../openapi/refs';
import type { CompareLimits } from './compare-options';
import type { FoundChange } from './found-change';
import { resolveLocated, type Located, type RefResolver } from './resolve-link';
import { readSchemaView, resolveSchemaRef, type SchemaIdentity, type SchemaRef, type SchemaView } from './schema-view';

export type Side = 'old' | 'new';
export type Direction = 'request' | 'response';

export interface CompareSession {
  readonly oldDoc: OpenApiDocument;
  readonly newDoc: OpenApiDocument;
  view(side: Side, ref: SchemaRef): SchemaView;
  /** The object a located value ends at after its `$ref` chain (cached lookups); undefined when dangling. */
  resolve(side: Side, located: Located): Located<JsonObject> | undefined;
  /** Runs `compute` for a schema pair once per direction; a pair met again while in progress (a cycle) yields no changes there. */
  memoised(direction: Direction, oldId: SchemaIdentity, newId: SchemaIdentity, compute: () => FoundChange[]): FoundChange[];
  /** Counts one unit of work; throws LIMIT_EXCEEDED past maxSteps. */
  step(): void;
  /** A session comparing the new document with itself (two of its schemas), within this one's step budget. */
  withinNew(): CompareSession;
}

/** What is known about one schema pair in one direction. */
interface PairEntry {
  /** Stack index while it is being compared. */
  inProgressAt?: number;
  changes?: FoundChange[];
  /** For a result that leaned on a cut: the stack index of the unfinished ancestor it depends on. */
  dependsOn?: number;
}

const NO_CHANGES: readonly FoundChange[] = Object.freeze([]);

export function createCompareSession(
  oldDoc: OpenApiDocument,
  newDoc: OpenApiDocument,
  limits: CompareLimits,
  budget: { steps: number } = { steps: 0 },
): CompareSession {
  const roots: Record<Side, JsonValue> = { old: oldDoc as JsonValue, new: newDoc as JsonValue };
  const views: Record<Side, Map<SchemaIdentity, SchemaView>> = { old: new Map(), new: new Map() };
  /**
   * Views by the reference object asking: property and item links are asked for again and again.
   * A Map, not a WeakMap: it lives only as long as the comparison and is several times faster.
   */
  const viewsByRef: Record<Side, Map<SchemaRef, SchemaView>> = { old: new Map(), new: new Map() };
  const resolvers: Record<Side, RefResolver> = { old: cachedResolver(roots.old), new: cachedResolver(roots.new) };
  const pairs: Record<Direction, Map<SchemaIdentity, Map<SchemaIdentity, PairEntry>>> = { request: new Map(), response: new Map() };
  /** Entries holding provisional results, in the order they were made. */
  const provisionalLog: PairEntry[] = [];
  let stackDepth = 0;
  /** Lowest stack index the current frame's result depends on (Infinity: none). */
  let dependsOn = Infinity;

  const step = () => {
    budget.steps += 1;
    if (budget.steps > limits.maxSteps) {
      throw limitExceeded(`comparison needs more than ${limits.maxSteps} steps (compareMaxSteps); the documents are too large or too intricate to compare`);
    }
  };

  const view = (side: Side, ref: SchemaRef): SchemaView => {
    const known = viewsByRef[side].get(ref);
    if (known) return known;
    const resolved = resolveSchemaRef(roots[side], ref, resolvers[side]);
    let found = views[side].get(resolved.identity);
    if (!found) {
      found = readSchemaView(roots[side], resolved, resolvers[side], step);
      views[side].set(resolved.identity, found);
    }
    viewsByRef[side].set(ref, found);
    return found;
  };

  const entryFor = (direction: Direction, oldId: SchemaIdentity, newId: SchemaIdentity): PairEntry => {
    let byNew = pairs[direction].get(oldId);
    if (!byNew) pairs[direction].set(oldId, (byNew = new Map()));
    let entry = byNew.get(newId);
    if (!entry) byNew.set(newId, (entry = {}));
    return entry;
  };

  const memoised = (direction: Direction, oldId: SchemaIdentity, newId: SchemaIdentity, compute: () => FoundChange[]): FoundChange[] => {
    const entry = entryFor(direction, oldId, newId);
    if (entry.changes) {
      if (entry.dependsOn !== undefined) dependsOn = Math.min(dependsOn, entry.dependsOn);
      return entry.changes;
    }
    if (entry.inProgressAt !== undefined) {
      dependsOn = Math.min(dependsOn, entry.inProgressAt);
      return NO_CHANGES as FoundChange[];
    }
    if (stackDepth >= limits.maxDepth) {
      throw limitExceeded(`schemas nest deeper than ${limits.maxDepth} levels (compareMaxDepth)`);
    }
    step();

    const myIndex = stackDepth;
    const outerDependsOn = dependsOn;
    const logMark = provisionalLog.length;
    dependsOn = Infinity;
    entry.inProgressAt = myIndex;
    stackDepth += 1;
    let changes: FoundChange[];
    try {
      changes = compute();
    } finally {
      stackDepth -= 1;
      entry.inProgressAt = undefined;
    }
    const mine = dependsOn;
    entry.changes = changes;
    if (mine >= myIndex) {
      // Everything this result leaned on is finished: it is final, and the provisional results
      // computed inside it are dropped (they assumed an ancestor that has now been compared).
      for (const provisional of provisionalLog.splice(logMark)) {
        provisional.changes = undefined;
        provisional.dependsOn = undefined;
      }
      dependsOn = outerDependsOn;
    } else {
      entry.dependsOn = mine;
      provisionalLog.push(entry);
      dependsOn = Math.min(outerDependsOn, mine);
    }
    return changes;
  };

  const resolve = (side: Side, located: Located) => resolveLocated(roots[side], located, resolvers[side]);

  let newAgainstItself: CompareSession | undefined;
  const withinNew = () => (newAgainstItself ??= createCompareSession(newDoc, newDoc, limits, budget));

  return { oldDoc, newDoc, view, resolve, memoised, step, withinNew };
}

function cachedResolver(root: JsonValue): RefResolver {
  const targets = new Map<string, JsonValue | undefined>();
  return (ref) => {
    if (targets.has(ref)) return targets.get(ref);
    const target = resolvePointer(root, ref);
    targets.set(ref, target);
    return target;
  };
}
