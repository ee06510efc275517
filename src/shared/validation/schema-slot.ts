/**
 * A schema of an operation (a parameter's, a body's, a header's), compiled on first use and kept;
 * a schema that cannot be compiled keeps its reason, so the failure is reported on every call
 * without being retried.
 */
import { ErrorCode, SvcError, limitExceeded } from '../errors';
import type { ErrorCategory } from './types';
import type { CallContext } from './call-context';
import { addError, isFull } from './error-report';
import { validationMessages } from './messages';
import { errorsToWord, schemaErrorMessage } from './schema-errors';
import type { SchemaCompiler, SchemaValidator } from './schema-compiler';
import { SchemaCompileError } from './schema-compile-error';
import type { Direction } from './schema-transform';

export interface SchemaSlot {
  /** Where the schema is in the document (canonical JSON pointer). */
  readonly pointer: string;
  readonly direction: Direction;
  /** What the schema describes, for a compile failure: `request body`, `parameter "id" in path`. */
  readonly subject: string;
  validate: SchemaValidator | undefined;
  failure: string | undefined;
}

export function createSlot(pointer: string, direction: Direction, subject: string): SchemaSlot {
  return { pointer, direction, subject, validate: undefined, failure: undefined };
}

/**
 * Validates `data`; every violation goes to the report under `category`, located at `place`.
 * `written`, the texts `data` was read from in its shape (parameters and headers, whose values are
 * short), puts the failing value's text into messages; bodies give none.
 */
export function runSlot(
  slot: SchemaSlot,
  data: unknown,
  place: string,
  category: ErrorCategory,
  written: unknown,
  call: CallContext,
): void {
  const validate = slot.validate ?? compileSlot(slot, call.compiler);
  if (validate === undefined) {
    addError(call.report, 'router_creation', validationMessages.schemaNotCompiled(slot.subject, call.operation, slot.failure!));
    return;
  }
  let valid: boolean;
  try {
    valid = validate(data);
  } catch (error) {
    // A schema whose `$ref`s loop without consuming data (A → allOf B → allOf A) recurses until the
    // stack ends. Formats and patterns never throw RangeError (format-checks.ts, regex.ts).
    if (error instanceof RangeError) {
      addError(call.report, category, validationMessages.schemaRecursion(place));
      return;
    }
    // A value no engine could check: the call fails, saying where.
    if (error instanceof SvcError && error.code === ErrorCode.LIMIT_EXCEEDED) throw limitExceeded(`${place} could not be checked: ${error.message}`);
    throw error;
  }
  if (valid) return;
  const errors = errorsToWord(validate.errors ?? []);
  for (let i = 0; i < errors.length; i++) {
    if (isFull(call.report)) {
      // Wording messages nobody will read would cost more than the validation did.
      call.report.omitted += errors.length - i;
      return;
    }
    const message = schemaErrorMessage(place, errors[i]!, written, call.options);
    if (message !== undefined) addError(call.report, category, message);
  }
}

function compileSlot(slot: SchemaSlot, compiler: SchemaCompiler): SchemaValidator | undefined {
  if (slot.failure !== undefined) return undefined;
  try {
    slot.validate = compiler.compile(slot.pointer, slot.direction);
    return slot.validate;
  } catch (error) {
    if (!(error instanceof SchemaCompileError)) throw error;
    slot.failure = error.message;
    return undefined;
  }
}
