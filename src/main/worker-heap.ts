/**
 * The heap limit of the server's worker threads (validation and document tasks). With a limit of
 * its own, a thread that runs out of heap is stopped with ERR_WORKER_OUT_OF_MEMORY; without one, V8's
 * process-wide limit ends the whole server.
 */

/** Piscina's `resourceLimits` for an old-generation heap of `maxHeapBytes`. */
export function heapLimits(maxHeapBytes: number): { maxOldGenerationSizeMb: number } {
  return { maxOldGenerationSizeMb: Math.ceil(maxHeapBytes / (1024 * 1024)) };
}

/** Whether a task failed because its thread ran out of heap and was stopped. */
export function isOutOfHeap(error: unknown): boolean {
  return (error as { code?: string } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY';
}
