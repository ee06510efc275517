/** Why a schema cannot be compiled; the message becomes part of a validation outcome (docs/validation.md). */

export class SchemaCompileError extends Error {
  override readonly name = 'SchemaCompileError';
}

/** The compile budget (`maxCompileSchemaNodes`) is spent: the schema reaches too many schema objects. */
export function nodeBudgetExceeded(maxCompileSchemaNodes: number): SchemaCompileError {
  return new SchemaCompileError(`it reaches more than ${maxCompileSchemaNodes} schema objects (maxCompileSchemaNodes)`);
}
