/** Options of a compiled contract: one typed interface, defaults from LIMITS, checked once at construction. */
import { LIMITS } from '../limits';

export interface ContractOptions {
  /** Messages listed per outcome (the last slot says how many more were found). */
  maxErrors: number;
  /** Largest request or response body parsed, in bytes of UTF-8. */
  maxBodyBytes: number;
  /** Deepest array/object nesting accepted in a body, in levels. */
  maxBodyDepth: number;
  /** Longest request path (query string included), in characters. */
  maxPathChars: number;
  /** Schema objects transformed and compiled at once for one schema plus the `$ref`s it reaches. */
  maxCompileSchemaNodes: number;
  /** Properties one schema object may declare (intake refuses more; checked again before compiling). */
  maxSchemaObjectProperties: number;
  /** Characters of a value (or a property name from the data) quoted in a message. */
  maxQuotedValueChars: number;
  /** Characters of a JSON pointer quoted in a message; a longer one keeps its start and end. */
  maxPointerChars: number;
  /** UTF-8 bytes of the messages listed in one outcome (later violations are only counted). */
  maxErrorBytes: number;
}

export const DEFAULT_CONTRACT_OPTIONS: Readonly<ContractOptions> = Object.freeze({
  maxErrors: LIMITS.validationMaxErrors,
  maxBodyBytes: LIMITS.validationMaxBodyBytes,
  maxBodyDepth: LIMITS.validationMaxBodyDepth,
  maxPathChars: LIMITS.validationMaxPathChars,
  maxCompileSchemaNodes: LIMITS.validationMaxCompileSchemaNodes,
  maxSchemaObjectProperties: LIMITS.maxSchemaObjectProperties,
  maxQuotedValueChars: LIMITS.validationMaxQuotedValueChars,
  maxPointerChars: LIMITS.validationMaxPointerChars,
  maxErrorBytes: LIMITS.validationMaxErrorBytes,
});

/** Merges `overrides` over the defaults; throws a TypeError naming the option for a bad value. */
export function resolveContractOptions(overrides: Partial<ContractOptions> = {}): Readonly<ContractOptions> {
  const options = { ...DEFAULT_CONTRACT_OPTIONS };
  for (const [name, value] of Object.entries(overrides) as Array<[keyof ContractOptions, unknown]>) {
    if (value === undefined) continue;
    if (!(name in DEFAULT_CONTRACT_OPTIONS)) throw new TypeError(`options.${name} is not a contract option`);
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
      throw new TypeError(`options.${name} must be a positive integer`);
    }
    options[name] = value;
  }
  return Object.freeze(options);
}
