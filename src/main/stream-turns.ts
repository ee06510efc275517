/**
 * Turns of the main thread for the streams that carry many messages (RecordInteractions,
 * ValidateInteractionStream). One read of a connection can hand grpc-js hundreds of messages, and
 * all of them are handled before the event loop looks at any other connection: four streams of
 * recorded interactions held every other caller's calls 55 ms (p50), 169 ms (p99). Here those
 * streams share an allowance of messages per turn of the event loop; a stream that finds it spent
 * stops reading until the next turn, after the other connections' reads have run. Its client is
 * held back by HTTP/2 flow control meanwhile.
 */
import { LIMITS } from '../shared/limits';

export interface StreamTurns {
  /** Counts one message of a stream; false when this turn's allowance is spent: pause, and `nextTurn`. */
  take(): boolean;
  /** Runs `resume` at the next turn (once). */
  nextTurn(resume: () => void): void;
}

export function createStreamTurns(messagesPerTurn: number = LIMITS.streamMessagesPerTurn): StreamTurns {
  if (!Number.isSafeInteger(messagesPerTurn) || messagesPerTurn < 1) throw new TypeError('messagesPerTurn must be a positive integer');
  let taken = 0;
  let turnEnding = false;
  // A set: a stream that asks again within the turn is still resumed once.
  let waiting = new Set<() => void>();
  // setImmediate runs after the event loop's poll phase: every connection with data has been read by then.
  const newTurn = () => {
    taken = 0;
    turnEnding = false;
    const resumes = waiting;
    waiting = new Set();
    for (const resume of resumes) resume();
  };
  return {
    take() {
      if (!turnEnding) {
        turnEnding = true;
        setImmediate(newTurn);
      }
      return ++taken <= messagesPerTurn;
    },
    nextTurn(resume) {
      waiting.add(resume);
    },
  };
}
