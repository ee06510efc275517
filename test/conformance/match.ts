/**
 * The matching rules of the client conformance suite (clients/conformance/README.md, "Expectations"):
 * an expectation `M` is compared with an actual canonical value and every mismatch is reported with
 * the JSON-pointer-like location where it was found.
 */

/** The operators an expectation object may use; an object with a `$` key holds exactly one of them. */
const OPERATORS = ['$len', '$contains', '$match', '$nonEmpty', '$absentOrEmpty'] as const;
type Operator = (typeof OPERATORS)[number];

export interface Mismatch {
  /** Where in the actual value: `/affected_consumers/0/will_break`; empty for the value itself. */
  at: string;
  problem: string;
}

/** All mismatches between `expected` and `actual`; empty when they match. */
export function findMismatches(expected: unknown, actual: unknown, at = ''): Mismatch[] {
  const operator = operatorOf(expected);
  if (operator) return matchOperator(operator, (expected as Record<string, unknown>)[operator], actual, at);
  if (Array.isArray(expected)) return matchArray(expected, actual, at);
  if (isPlainObject(expected)) return matchObject(expected, actual, at);
  return expected === actual ? [] : [{ at, problem: `expected ${show(expected)}, got ${show(actual)}` }];
}

export function matches(expected: unknown, actual: unknown): boolean {
  return findMismatches(expected, actual).length === 0;
}

function matchArray(expected: unknown[], actual: unknown, at: string): Mismatch[] {
  if (!Array.isArray(actual)) return [{ at, problem: `expected an array of ${expected.length}, got ${show(actual)}` }];
  if (actual.length !== expected.length) {
    return [{ at, problem: `expected an array of ${expected.length}, got one of ${actual.length}: ${show(actual)}` }];
  }
  return expected.flatMap((element, index) => findMismatches(element, actual[index], `${at}/${index}`));
}

function matchObject(expected: Record<string, unknown>, actual: unknown, at: string): Mismatch[] {
  if (!isPlainObject(actual)) return [{ at, problem: `expected an object, got ${show(actual)}` }];
  return Object.entries(expected).flatMap(([key, value]) => {
    const where = `${at}/${key}`;
    if (!Object.hasOwn(actual, key)) {
      return operatorOf(value) === '$absentOrEmpty' ? [] : [{ at: where, problem: 'missing' }];
    }
    return findMismatches(value, actual[key], where);
  });
}

function matchOperator(operator: Operator, argument: unknown, actual: unknown, at: string): Mismatch[] {
  switch (operator) {
    case '$len': {
      if (!Number.isInteger(argument)) throw malformed(at, '$len needs an integer');
      if (Array.isArray(actual) && actual.length === argument) return [];
      return [{ at, problem: `expected an array of ${argument as number}, got ${show(actual)}` }];
    }
    case '$contains': {
      if (!Array.isArray(argument)) throw malformed(at, '$contains needs an array');
      if (!Array.isArray(actual)) return [{ at, problem: `expected an array, got ${show(actual)}` }];
      return argument
        .filter((wanted) => !actual.some((element) => matches(wanted, element)))
        .map((wanted) => ({ at, problem: `no element matches ${show(wanted)} in ${show(actual)}` }));
    }
    case '$match': {
      if (typeof argument !== 'string') throw malformed(at, '$match needs a regular expression string');
      if (typeof actual === 'string' && new RegExp(argument).test(actual)) return [];
      return [{ at, problem: `expected a string matching /${argument}/, got ${show(actual)}` }];
    }
    case '$nonEmpty': {
      if (argument !== true) throw malformed(at, '$nonEmpty takes true');
      return isNonEmpty(actual) ? [] : [{ at, problem: `expected a non-empty string, array or object, got ${show(actual)}` }];
    }
    case '$absentOrEmpty': {
      if (argument !== true) throw malformed(at, '$absentOrEmpty takes true');
      return isEmptyValue(actual) ? [] : [{ at, problem: `expected absent or empty, got ${show(actual)}` }];
    }
  }
}

function operatorOf(value: unknown): Operator | undefined {
  if (!isPlainObject(value)) return undefined;
  const keys = Object.keys(value);
  const dollarKeys = keys.filter((key) => key.startsWith('$'));
  if (dollarKeys.length === 0) return undefined;
  if (keys.length !== 1 || !(OPERATORS as readonly string[]).includes(dollarKeys[0]!)) {
    throw malformed('', `an expectation object with $ keys holds exactly one of ${OPERATORS.join(', ')}; got ${show(value)}`);
  }
  return dollarKeys[0] as Operator;
}

function isNonEmpty(value: unknown): boolean {
  if (typeof value === 'string' || Array.isArray(value)) return value.length > 0;
  return isPlainObject(value) && Object.keys(value).length > 0;
}

/** `undefined` stands for a missing key here: the canonical forms never hold undefined otherwise. */
function isEmptyValue(value: unknown): boolean {
  if (value === undefined || value === null || value === '' || value === 0 || value === false) return true;
  if (Array.isArray(value)) return value.length === 0;
  return isPlainObject(value) && Object.keys(value).length === 0;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function malformed(at: string, problem: string): Error {
  return new Error(`malformed expectation at ${at || '(top)'}: ${problem}`);
}

/** Values in messages: JSON, cut short so that one long body does not drown the report. */
const SHOWN_CHARACTERS = 400;

function show(value: unknown): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > SHOWN_CHARACTERS ? `${text.slice(0, SHOWN_CHARACTERS)}…` : text;
}
