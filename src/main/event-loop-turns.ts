/**
 * Long work on the main thread cut into turns of the event loop, so that every other call gets in
 * between: the loop asks `due()` between two pieces (a clock read, nothing built) and, when the turn
 * has run its time, awaits `next()`. Used where one answer's work grows with what a caller asked for:
 * encoding an answer with long lists, judging many consumers, building a coverage answer.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';

export interface EventLoopTurns {
  /** Whether the current turn has run longer than its time. */
  due(): boolean;
  /** Lets the event loop go round once, and starts a new turn. */
  next(): Promise<void>;
}

export function eventLoopTurns(turnMs: number): EventLoopTurns {
  let turnStarted = performance.now();
  return {
    due: () => performance.now() - turnStarted > turnMs,
    async next() {
      await nextTurn();
      turnStarted = performance.now();
    },
  };
}
