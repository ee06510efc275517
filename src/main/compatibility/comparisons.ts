/**
 * Breaking changes between two documents, computed on a document-task thread. Identical comparisons
 * in flight (CanIDeploy asks the same question for every consumer of a pipeline run) share one task,
 * counted against the caller who asked first: a later asker waits on it without using its own share.
 */
import type { BreakingChangeRecord } from '../../shared/compare';
import type { TaskDocument } from '../../shared/document-task-protocol';
import type { DocumentTaskPool } from '../document-task-pool';

export interface Comparisons {
  /** Rejects with the engine's SvcError (LIMIT_EXCEEDED), or as DocumentTaskPool.run does for `caller`. */
  compare(oldDocument: TaskDocument, newDocument: TaskDocument, caller: string): Promise<BreakingChangeRecord[]>;
}

export function createComparisons(documentTasks: DocumentTaskPool): Comparisons {
  const running = new Map<string, Promise<BreakingChangeRecord[]>>();
  return {
    compare(oldDocument, newDocument, caller) {
      const key = `${oldDocument.hash}>${newDocument.hash}`;
      let comparison = running.get(key);
      if (!comparison) {
        comparison = documentTasks.run<'compare'>({ kind: 'compare', oldDocument, newDocument }, caller).then((answer) => answer.changes);
        running.set(key, comparison);
        const forget = () => running.delete(key);
        comparison.then(forget, forget);
      }
      return comparison;
    },
  };
}
