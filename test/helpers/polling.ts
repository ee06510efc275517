/**
 * Waiting, in tests, for something another thread or process does: a fixed pause is too short on a
 * loaded machine, and too long on a quiet one.
 */

/** Whether `condition` came to hold within `withinMs`, looked at every `everyMs`. */
export async function waitUntil(condition: () => boolean, withinMs: number, everyMs = 10): Promise<boolean> {
  for (const deadline = Date.now() + withinMs; !condition();) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return true;
}
