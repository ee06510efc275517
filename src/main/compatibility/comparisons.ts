/**
 * Breaking changes between two documents, computed on a document-task thread. Identical comparisons
 * in flight (CanIDeploy asks the same question for every consumer of a pipeline run) share one task,
 * counted against the caller who asked first, and dropped or stopped once every asker has gone
 * (shared-tasks.ts).
 */
import type { BreakingChangeRecord } from '../../shared/compare';
import type { TaskDocument } from '../../shared/document-task-protocol';
import type { DocumentTaskPool } from '../document-task-pool';
import { createSharedTasks } from '../shared-tasks';

export interface Comparisons {
  /** Rejects with the engine's SvcError (LIMIT_EXCEEDED), or as DocumentTaskPool.run does for `caller` and `gone`. */
  compare(oldDocument: TaskDocument, newDocument: TaskDocument, caller: string, gone?: () => boolean): Promise<BreakingChangeRecord[]>;
}

export function createComparisons(documentTasks: DocumentTaskPool): Comparisons {
  const comparisons = createSharedTasks<BreakingChangeRecord[]>();
  return {
    compare(oldDocument, newDocument, caller, gone) {
      return comparisons.run(`${oldDocument.hash}>${newDocument.hash}`, gone, (allGone) =>
        documentTasks.run<'compare'>({ kind: 'compare', oldDocument, newDocument }, caller, allGone).then((answer) => answer.changes));
    },
  };
}
