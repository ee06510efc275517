/**
 * Turns of the main thread for the streams that carry many messages (RecordInteractions,
 * ValidateInteractionStream). One read of a connection can hand grpc-js hundreds of messages, and
 * all of them are handled before the event loop looks at any other connection: four streams of
 * recorded interactions held every other caller's calls 55 ms (p50), 169 ms (p99). Here those
 * streams share an allowance of messages per turn of the event loop; a stream that finds it spent
 * stops reading until the next turn, after the other connections' reads have run. Its client is
 * held back by HTTP/2 flow control meanwhile.
 *
 * The allowance counts bytes too: 64 recorded interactions with 256 Ki-character bodies cost the
 * main thread about 19 ms each, and 64 parallel streams of them held a neighbour's calls 1.1 s (p99)
 * although no turn passed 64 messages. The first message of a turn is always allowed, whatever its size.
 */
import { LIMITS } from '../shared/limits';

export interface StreamTurns {
  /**
   * Counts one message of a stream and its `bytes` (what the main thread reads of it; 0 when unknown);
   * false when this turn's allowance is spent: pause, and `nextTurn`.
   */
  take(bytes?: number): boolean;
  /** Runs `resume` at the next turn (once). */
  nextTurn(resume: () => void): void;
  /**
   * Resolves in the first turn whose allowance takes a message of `bytes`: for a stream that holds
   * back a message `take` refused instead of handling it in the spent turn.
   */
  turnFor(bytes: number): Promise<void>;
}

export function createStreamTurns(
  messagesPerTurn: number = LIMITS.streamMessagesPerTurn,
  bytesPerTurn: number = LIMITS.streamBytesPerTurn,
): StreamTurns {
  if (!Number.isSafeInteger(messagesPerTurn) || messagesPerTurn < 1) throw new TypeError('messagesPerTurn must be a positive integer');
  if (!Number.isSafeInteger(bytesPerTurn) || bytesPerTurn < 1) throw new TypeError('bytesPerTurn must be a positive integer');
  let taken = 0;
  let takenBytes = 0;
  let turnEnding = false;
  // A set: a stream that asks again within the turn is still resumed once.
  let waiting = new Set<() => void>();
  // setImmediate runs after the event loop's poll phase: every connection with data has been read by then.
  const newTurn = () => {
    taken = 0;
    takenBytes = 0;
    turnEnding = false;
    const resumes = waiting;
    waiting = new Set();
    for (const resume of resumes) resume();
  };
  const turns: StreamTurns = {
    take(bytes = 0) {
      if (!turnEnding) {
        turnEnding = true;
        setImmediate(newTurn);
      }
      const fits = taken < messagesPerTurn && (takenBytes === 0 || takenBytes + bytes <= bytesPerTurn);
      taken++;
      takenBytes += bytes;
      return fits;
    },
    nextTurn(resume) {
      waiting.add(resume);
    },
    async turnFor(bytes) {
      // Waiters are resumed before the next poll phase, so new arrivals cannot keep them waiting.
      while (!turns.take(bytes)) await new Promise<void>((resolve) => turns.nextTurn(resolve));
    },
  };
  return turns;
}
