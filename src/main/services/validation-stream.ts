/**
 * ValidateInteractionStream: one ValidationResult per InteractionRequest, in the order the
 * requests arrived, `correlation_id` echoed. Validation failures are results like on the unary
 * operation, so one bad interaction never ends the stream. A call-level failure (a malformed
 * message, a worker that stopped) ends the stream with that status after every result before it
 * has been written: the client resends from the first interaction it has no result for.
 *
 * Backpressure: reading pauses while `validationStreamMaxInFlight` interactions (or
 * `validationStreamMaxInFlightBytes` of them) are read and not yet answered, while that many
 * results (or `validationStreamMaxUnsentBytes` of them) wait for the client to take them, while
 * the pool holds as many stream items as it
 * queues (all streams together: ValidationPool.hasStreamRoom), and until the next turn of the event
 * loop once the streams have had their messages for this one (stream-turns.ts); HTTP/2 flow control
 * then holds the client back. Calls are counted and logged by the call observer (call-observer.ts).
 */
import type { ServerDuplexStream, handleBidiStreamingCall } from '@grpc/grpc-js';
import { status } from '@grpc/grpc-js';
import { LIMITS } from '../../shared/limits';
import { ValidationOperation } from '../../shared/pool-protocol/batches';
import { callerOf } from '../auth/principal';
import { grpcStatusOf, toServiceError } from '../grpc-status';
import type { ServiceContext } from '../service-context';
import type { CallValidator } from './validation-call';

const OPERATION = 'ValidateInteractionStream';

interface Slot {
  bytes: number;
  settled: boolean;
  result: Buffer | undefined;
  error: unknown;
}

export interface StreamLimits {
  maxInFlight: number;
  maxInFlightBytes: number;
  /** Bytes of results written and not yet taken by HTTP/2 (the client's flow-control window). */
  maxUnsentBytes: number;
}

export function createValidationStreamHandler(
  ctx: ServiceContext,
  validate: CallValidator,
  { maxInFlight, maxInFlightBytes, maxUnsentBytes }: StreamLimits = {
    maxInFlight: LIMITS.validationStreamMaxInFlight,
    maxInFlightBytes: LIMITS.validationStreamMaxInFlightBytes,
    maxUnsentBytes: LIMITS.validationStreamMaxUnsentBytes,
  },
): handleBidiStreamingCall<Buffer, Buffer> {
  return (call: ServerDuplexStream<Buffer, Buffer>) => {
    const slots: Slot[] = [];
    let slotBytes = 0;
    let unsentBytes = 0;
    let inputEnded = false;
    let finished = false;
    let paused = false;
    let waitingForDrain = false;
    let waitingForPool = false;
    let waitingForTurn = false;
    /** Items of a stream that has ended (cancelled, failed) are no longer wanted: the pool drops them. */
    const isFinished = () => finished;
    let caller: string | undefined;
    const callerOfStream = () => (caller ??= callerOf(call, ctx.trustedProxies));

    const finish = (code: status, error?: unknown) => {
      if (finished) return;
      finished = true;
      if (error === undefined) call.end();
      else if (code !== status.CANCELLED) call.emit('error', toServiceError(error, ctx.logger, OPERATION));
    };

    const resumeWhenPoolHasRoom = () => {
      waitingForPool = false;
      updateFlow();
    };
    const resumeAtNextTurn = () => {
      waitingForTurn = false;
      updateFlow();
    };
    const updateFlow = () => {
      const poolFull = !finished && !ctx.pool.hasStreamRoom();
      if (poolFull && !waitingForPool) {
        waitingForPool = true;
        ctx.pool.whenStreamRoom(resumeWhenPoolHasRoom);
      }
      const shouldPause = !finished && (slots.length >= maxInFlight || slotBytes > maxInFlightBytes || waitingForDrain || unsentBytes > maxUnsentBytes || poolFull || waitingForTurn);
      if (shouldPause && !paused) call.pause();
      else if (!shouldPause && paused) call.resume();
      paused = shouldPause;
    };

    // A write's callback runs once HTTP/2 has taken the result (grpc-js: Http2ServerCallStream.sendMessage);
    // 'drain' alone counts results, whatever their size.
    const sent = (bytes: number) => () => {
      unsentBytes -= bytes;
      if (paused && unsentBytes <= maxUnsentBytes) updateFlow();
    };

    /** Writes every settled result at the head of the line, in arrival order. */
    const flush = () => {
      while (!finished && slots.length > 0 && slots[0]!.settled) {
        const slot = slots.shift()!;
        slotBytes -= slot.bytes;
        if (slot.result === undefined) {
          finish(grpcStatusOf(slot.error), slot.error);
          break;
        }
        // Object mode: write() turns false after a handful of queued results; pause only once many wait.
        unsentBytes += slot.result.length;
        if (!call.write(slot.result, sent(slot.result.length)) && call.writableLength >= maxInFlight) waitingForDrain = true;
      }
      if (inputEnded && slots.length === 0) finish(status.OK);
      updateFlow();
    };

    call.on('data', (message: Buffer) => {
      if (finished) return;
      const slot: Slot = { bytes: message.length, settled: false, result: undefined, error: undefined };
      slots.push(slot);
      slotBytes += slot.bytes;
      // Counted as a message, not by its bytes: the main thread reads only its routing head (2.5–10 µs
      // for 1–8 MB messages) and copies it into a batch (0.02 ms per MiB); its bodies are read on the pool.
      if (!ctx.streamTurns.take() && !waitingForTurn) {
        waitingForTurn = true;
        ctx.streamTurns.nextTurn(resumeAtNextTurn);
      }
      validate(ValidationOperation.INTERACTION, message, isFinished, callerOfStream).then(
        (result) => {
          slot.settled = true;
          slot.result = result;
          flush();
        },
        (error: unknown) => {
          slot.settled = true;
          slot.error = error;
          flush();
        },
      );
      updateFlow();
    });
    call.on('drain', () => {
      waitingForDrain = false;
      updateFlow();
    });
    call.on('end', () => {
      inputEnded = true;
      flush();
    });
    call.on('cancelled', () => finish(status.CANCELLED, new Error('cancelled by the client')));
  };
}
