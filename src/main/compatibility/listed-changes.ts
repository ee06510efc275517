/**
 * The breaking changes a CanIDeploy answer lists for its consumers: at most `perConsumer` for each
 * (relevant changes first, then unreached ones) and `total` over all consumers, in the order the
 * consumers are listed; what is left out is counted per consumer (omitted_changes). The verdict
 * never depends on the lists: it counts every change. Each change becomes one wire object however
 * many consumers list it.
 */
import type { BreakingChange__Output } from '@svc/client/protocol';
import { toBreakingChangeWire, type BreakingChangeRecord } from '../../shared/compare';
import { LIMITS } from '../../shared/limits';

export interface ListingLimits {
  perConsumer: number;
  total: number;
}

export interface ConsumerChangeLists {
  relevant: BreakingChange__Output[];
  unreached: BreakingChange__Output[];
  omitted: number;
}

export interface ChangeListing {
  /** The lists of one consumer, taken from the answer's remaining room. */
  listFor(relevant: readonly BreakingChangeRecord[], unreached: readonly BreakingChangeRecord[]): ConsumerChangeLists;
  /** Changes left out so far, all consumers together. */
  readonly omitted: number;
}

export const DEFAULT_LISTING_LIMITS: Readonly<ListingLimits> = Object.freeze({
  perConsumer: LIMITS.canIDeployChangesPerConsumer,
  total: LIMITS.canIDeployListedChanges,
});

export function createChangeListing(limits: ListingLimits = DEFAULT_LISTING_LIMITS): ChangeListing {
  const wires = new Map<BreakingChangeRecord, BreakingChange__Output>();
  const wireOf = (change: BreakingChangeRecord) => {
    let wire = wires.get(change);
    if (wire === undefined) wires.set(change, (wire = toBreakingChangeWire(change)));
    return wire;
  };
  let room = limits.total;
  let omitted = 0;
  return {
    listFor(relevant, unreached) {
      const allowed = Math.min(limits.perConsumer, room);
      const listedRelevant = relevant.slice(0, allowed).map(wireOf);
      const listedUnreached = unreached.slice(0, allowed - listedRelevant.length).map(wireOf);
      const listed = listedRelevant.length + listedUnreached.length;
      const left = relevant.length + unreached.length - listed;
      room -= listed;
      omitted += left;
      return { relevant: listedRelevant, unreached: listedUnreached, omitted: left };
    },
    get omitted() {
      return omitted;
    },
  };
}
