/**
 * Compiled validators shared by every contract of a thread. Two contracts whose schemas are the
 * same (copies of one document, versions that left an operation unchanged, the `{type: string}`
 * of countless parameters) would each compile and run their own function: twice the compile time
 * and code, and the inline caches of each copy warm only on its own calls. A validator is
 * therefore filed under the content of the schema closure it checks (the transformed schema and
 * every schema its `$ref`s reach, references numbered in the order they are first met), and a
 * contract that compiles the same closure gets the function already made.
 *
 * Entries are weak: a validator lives as long as a contract's operation holds it, so sharing keeps
 * nothing alive that no contract uses. A contract that is dropped withdraws what it filed; the
 * contracts that took one of its validators keep that function and what it refers to, which is
 * what they would have compiled themselves (generated code holds only what it uses, not the AJV
 * instance it was compiled in).
 */
import { createHash } from 'node:crypto';
import type { AnyValidateFunction } from 'ajv/dist/types';
import { createWeakFiling } from './weak-filing';

const validators = createWeakFiling<AnyValidateFunction>();

/** The validator filed under `key`, if a contract of this thread still uses it. */
export function sharedValidator(key: string): AnyValidateFunction | undefined {
  return validators.get(key);
}

/** Files `validate` under `key` for the next contract that compiles the same closure. */
export function shareValidator(key: string, validate: AnyValidateFunction): void {
  validators.file(key, validate);
}

/**
 * Withdraws `validate` from `key` (its contract is being dropped): contracts that hold it keep it,
 * but no new contract takes it, so a dropped contract's compiled code outlives it only in the
 * contracts that already share it.
 */
export function withdrawValidator(key: string, validate: AnyValidateFunction): void {
  validators.withdraw(key, validate);
}

/** Closures filed in this thread (some may have been collected since). */
export function sharedValidatorCount(): number {
  return validators.size;
}

/** Keywords whose values are maps of names to schemas. */
const SCHEMA_MAP_KEYWORDS = new Set(['properties', 'patternProperties', 'dependentSchemas', 'dependencies', '$defs', 'definitions']);
/** Keywords whose values are data, never schemas: a `$ref` inside is a value like any other. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);

class OverBudget extends Error {}

/**
 * The key of the closure of `rootId`: a hash of `salt` and of every schema of the closure, in the
 * order their references are first met, with each reference written as that order's number.
 * `schemaOf` gives the transformed schema compiled under an id. The text is an exact encoding
 * (a `$ref` in a schema position, a value under `const` or `enum` and a property named `const`
 * are written apart), so two closures share a key only when they validate alike. Undefined when
 * the text would exceed `maxChars`, or the closure reaches a schema `knownOversized` (whose own
 * closure, a part of this one, did): hashing a very large closure costs more than sharing saves.
 */
export function closureKey(
  rootId: string,
  schemaOf: (id: string) => unknown,
  salt: string,
  maxChars: number,
  knownOversized: (id: string) => boolean,
): string | undefined {
  const numbers = new Map<string, number>([[rootId, 0]]);
  const order = [rootId];
  const parts: string[] = [];
  let chars = 0;
  const emit = (text: string) => {
    chars += text.length;
    if (chars > maxChars) throw new OverBudget();
    parts.push(text);
  };
  const reference = (id: string): number | undefined => {
    let number = numbers.get(id);
    if (number === undefined && knownOversized(id)) throw new OverBudget();
    if (number === undefined && schemaOf(id) !== undefined) {
      number = order.length;
      numbers.set(id, number);
      order.push(id);
    }
    return number;
  };
  const writeSchema = (node: unknown): void => {
    if (Array.isArray(node)) {
      emit('[');
      for (const item of node) {
        writeSchema(item);
        emit(',');
      }
      emit(']');
      return;
    }
    if (node === null || typeof node !== 'object') {
      emit(JSON.stringify(node) ?? 'u');
      return;
    }
    emit('{');
    for (const [key, value] of Object.entries(node)) {
      emit(JSON.stringify(key));
      if (key === '$ref' && typeof value === 'string') {
        const number = reference(value);
        emit(number === undefined ? `=s${JSON.stringify(value)}` : `=r${number}`);
      } else if (DATA_KEYWORDS.has(key)) {
        emit(`=d${JSON.stringify(value) ?? 'u'}`);
      } else if (SCHEMA_MAP_KEYWORDS.has(key) && value !== null && typeof value === 'object' && !Array.isArray(value)) {
        emit('=m{');
        for (const [name, schema] of Object.entries(value)) {
          emit(JSON.stringify(name));
          emit(':');
          writeSchema(schema);
          emit(',');
        }
        emit('}');
      } else {
        emit('=');
        writeSchema(value);
      }
      emit(',');
    }
    emit('}');
  };
  try {
    for (let next = 0; next < order.length; next++) {
      emit('\n');
      writeSchema(schemaOf(order[next]!));
    }
  } catch (error) {
    if (error instanceof OverBudget) return undefined;
    throw error;
  }
  return createHash('sha256').update(salt).update('\n').update(parts.join('')).digest('base64');
}
