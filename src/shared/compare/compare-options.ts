/** Bounds on one comparison, so that no document the registry accepts can make it hang. */
import { LIMITS } from '../limits';

export interface CompareOptions {
  /** Units of work (schema pairs compared, schema parts read) before the comparison gives up. */
  maxSteps?: number;
  /** Deepest nesting of schemas followed (properties, items, alternatives, references). */
  maxDepth?: number;
  /** Breaking changes listed at most; more fail the comparison instead of filling memory and the wire. */
  maxChanges?: number;
  /** Characters of the changes listed (paths, descriptions, old and new values) at most; more fail the comparison too. */
  maxChangeChars?: number;
}

export interface CompareLimits {
  maxSteps: number;
  maxDepth: number;
  maxChanges: number;
  maxChangeChars: number;
}

export function compareLimits(options: CompareOptions = {}): CompareLimits {
  return {
    maxSteps: options.maxSteps ?? LIMITS.compareMaxSteps,
    maxDepth: options.maxDepth ?? LIMITS.compareMaxDepth,
    maxChanges: options.maxChanges ?? LIMITS.compareMaxChanges,
    maxChangeChars: options.maxChangeChars ?? LIMITS.compareMaxChangeChars,
  };
}
