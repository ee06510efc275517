/**
 * Exit codes are an interface: CI pipelines branch on them. 0 and 1 follow the specification for
 * every command; 2 separates "the command line itself is wrong" from a negative answer, the way
 * diff(1) and grep(1) do, so a gate never mistakes a typo for a verdict.
 */
export const EXIT = Object.freeze({
  /** Success: valid, compatible, safe, ready, registered. */
  ok: 0,
  /** A negative answer or a failure: invalid, breaking, unsafe, time-out, refused, unreachable. */
  failure: 1,
  /** A usage error: unknown flag, missing argument, malformed option value. */
  usage: 2,
});
