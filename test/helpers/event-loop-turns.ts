/**
 * Counts turns of the event loop (one per check phase, from a chain of setImmediate), so a test can
 * say which turn something ran in: work that must let other calls in between shows in turns of its own.
 */
export interface TurnCounter {
  /** Turns begun since the counter started. */
  readonly turn: number;
  stop(): void;
}

export function countTurns(): TurnCounter {
  let turn = 0;
  let counting = true;
  const next = () => {
    turn++;
    if (counting) setImmediate(next);
  };
  setImmediate(next);
  return {
    get turn() {
      return turn;
    },
    stop() {
      counting = false;
    },
  };
}
