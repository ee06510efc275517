/**
 * Document tasks that identical asks in flight share: one comparison for every consumer a pipeline
 * run asks CanIDeploy about, one operation listing for every caller of a version not listed yet.
 * The task counts against the caller who asked first (a later asker waits on it without using its
 * own share), and is dropped or stopped once every asker has gone (DocumentTaskPool.run).
 */
export interface SharedTasks<T> {
  /**
   * The task in flight for `key`, joined with `gone` (undefined: an asker that never goes); or one
   * started by `start`, whose `allGone` tells whether every asker of it has gone.
   */
  run(key: string, gone: (() => boolean) | undefined, start: (allGone: () => boolean) => Promise<T>): Promise<T>;
}

interface Shared<T> {
  result: Promise<T>;
  askers: Array<(() => boolean) | undefined>;
}

export function createSharedTasks<T>(): SharedTasks<T> {
  const running = new Map<string, Shared<T>>();
  const everyAskerGone = (askers: Shared<T>['askers']) => askers.every((gone) => gone?.() === true);
  return {
    run(key, gone, start) {
      const inFlight = running.get(key);
      // One whose askers have all gone is being dropped: a new asker starts its own.
      if (inFlight && !everyAskerGone(inFlight.askers)) {
        inFlight.askers.push(gone);
        return inFlight.result;
      }
      const askers: Shared<T>['askers'] = [gone];
      const shared: Shared<T> = { result: start(() => everyAskerGone(askers)), askers };
      running.set(key, shared);
      const forget = () => {
        if (running.get(key) === shared) running.delete(key);
      };
      shared.result.then(forget, forget);
      return shared.result;
    },
  };
}
