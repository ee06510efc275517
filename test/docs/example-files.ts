/**
 * Example programs the documentation shows whole (`<!-- file: <path> -->`), each run by its own test
 * because it needs more than a script run: a `node --test` file, an app answering real HTTP calls.
 */
export const EXAMPLE_PROGRAMS: Readonly<Record<string, string>> = Object.freeze({
  'docs/examples/consumer-contract.test.js': 'test/docs/client-examples.test.ts',
  'docs/examples/producer-app.js': 'test/docs/client-examples.test.ts',
});
