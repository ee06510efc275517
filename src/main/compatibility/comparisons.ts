/**
 * Breaking changes between two documents, computed on a document-task thread. Identical comparisons
 * in flight (CanIDeploy asks the same question for every consumer of a pipeline run) share one task,
 * counted against the caller who asked first: a later asker waits on it without using its own share.
 * The task is dropped or stopped once every asker has gone (DocumentTaskPool.run).
 */
import type { BreakingChangeRecord } from '../../shared/compare';
import type { TaskDocument } from '../../shared/document-task-protocol';
import type { DocumentTaskPool } from '../document-task-pool';

export interface Comparisons {
  /** Rejects with the engine's SvcError (LIMIT_EXCEEDED), or as DocumentTaskPool.run does for `caller` and `gone`. */
  compare(oldDocument: TaskDocument, newDocument: TaskDocument, caller: string, gone?: () => boolean): Promise<BreakingChangeRecord[]>;
}

/** One comparison in flight and whether each of its askers has gone (undefined: one that never goes). */
interface SharedComparison {
  changes: Promise<BreakingChangeRecord[]>;
  askers: Array<(() => boolean) | undefined>;
}

export function createComparisons(documentTasks: DocumentTaskPool): Comparisons {
  const running = new Map<string, SharedComparison>();
  const everyAskerGone = (askers: SharedComparison['askers']) => askers.every((gone) => gone?.() === true);
  return {
    compare(oldDocument, newDocument, caller, gone) {
      const key = `${oldDocument.hash}>${newDocument.hash}`;
      const comparison = running.get(key);
      // One whose askers have all gone is being dropped: a new asker starts its own.
      if (comparison && !everyAskerGone(comparison.askers)) {
        comparison.askers.push(gone);
        return comparison.changes;
      }
      const askers: SharedComparison['askers'] = [gone];
      const shared: SharedComparison = {
        changes: documentTasks.run<'compare'>({ kind: 'compare', oldDocument, newDocument }, caller, () => everyAskerGone(askers)).then((answer) => answer.changes),
        askers,
      };
      running.set(key, shared);
      const forget = () => {
        if (running.get(key) === shared) running.delete(key);
      };
      shared.changes.then(forget, forget);
      return shared.changes;
    },
  };
}
