/**
 * Compiles the schemas of one document with one AJV instance, lazily, `$ref`s kept: every schema
 * object a `$ref` reaches is transformed once per direction (and once more as a base, where a
 * subtype refers back to it: schema-hierarchy.ts) and added under its own id, and AJV resolves
 * the references between them (compiling a dereferenced schema is a denial-of-service
 * surface, DESIGN rule 2). A schema whose closure another contract of the thread has compiled
 * already gets that validator (shared-validators.ts). Dropping the compiler frees everything it
 * compiled that no other contract uses.
 */
import type { AnyValidateFunction } from 'ajv/dist/types';
import { errorMessage } from '../errors';
import { isJsonObject, type JsonValue } from '../json';
import { LIMITS } from '../limits';
import { createAjv, hasFormat, type AjvInstance, type SchemaDialect } from './ajv-instance';
import { refToPointer, resolveJsonPointer } from '../openapi/refs';
import { nodeBudgetExceeded, SchemaCompileError } from './schema-compile-error';
import { SchemaHierarchy } from './schema-hierarchy';
import { closureKey, sharedValidator, shareValidator, withdrawValidator } from './shared-validators';
import { transformSchema, type Direction, type SchemaUnit, type TransformContext } from './schema-transform';

export type SchemaValidator = AnyValidateFunction<unknown> & ((data: unknown) => boolean);

export interface CompileLimits {
  /** Errors a validation function holds before its loops stop at the next failing element. */
  maxErrors: number;
  maxCompileSchemaNodes: number;
  maxSchemaObjectProperties: number;
}

/** Milliseconds this thread has spent in SchemaCompiler.compile: a validation worker tells a batch's compiles from its calls by it. */
let compilingMs = 0;

export function compilingTimeMs(): number {
  return compilingMs;
}

export class SchemaCompiler {
  private ajv: AjvInstance | undefined;
  private hierarchy: SchemaHierarchy | undefined;
  /** `unitKey(direction, unit)` → id of the transformed schema added to AJV. */
  private readonly ids = new Map<string, string>();
  /** id → the transformed schema added under it. */
  private readonly schemas = new Map<string, unknown>();
  /** id → the key its closure's validator is shared under; null where the closure is too large. */
  private readonly sharingKeys = new Map<string, string | null>();
  /** Validators this compiler compiled and filed for other contracts, by key. */
  private readonly filed = new Map<string, AnyValidateFunction>();
  private nextId = 0;
  /** Schema objects transformed and added to AJV so far: what this compiler holds grows with them. */
  private nodes = 0;

  constructor(
    private readonly document: JsonValue,
    private readonly dialect: SchemaDialect,
    private readonly limits: CompileLimits,
  ) {}

  /** The validator of the schema at `pointer`; throws SchemaCompileError when it cannot be compiled. */
  compile(pointer: string, direction: Direction): SchemaValidator {
    const started = performance.now();
    try {
      return this.compileValidator(pointer, direction);
    } finally {
      compilingMs += performance.now() - started;
    }
  }

  private compileValidator(pointer: string, direction: Direction): SchemaValidator {
    const ajv = (this.ajv ??= createAjv(this.dialect, this.limits.maxErrors));
    const unit: SchemaUnit = { pointer: this.followPlainRefs(pointer), base: false };
    let validate: AnyValidateFunction | undefined;
    let sharingKey: string | null = null;
    try {
      const id = this.ids.get(unitKey(direction, unit)) ?? this.addUnit(ajv, unit, direction);
      sharingKey = this.sharingKeyOf(id, direction);
      const shared = sharingKey === null ? undefined : sharedValidator(sharingKey);
      if (shared !== undefined) return shared as SchemaValidator;
      validate = ajv.getSchema(id);
    } catch (error) {
      if (error instanceof SchemaCompileError) throw error;
      throw new SchemaCompileError(
        error instanceof RangeError ? 'the schema is too deeply nested to compile' : errorMessage(error),
        { cause: error },
      );
    }
    if (validate === undefined) throw new SchemaCompileError(`no schema at #${unit.pointer}`);
    if (sharingKey !== null) {
      shareValidator(sharingKey, validate);
      this.filed.set(sharingKey, validate);
    }
    return validate as SchemaValidator;
  }

  /** Schema objects compiled (transformed and added) so far, for what the contract costs in memory. */
  get compiledNodes(): number {
    return this.nodes;
  }

  /** Frees the AJV instance and everything compiled with it that no other contract took. */
  close(): void {
    for (const [key, validate] of this.filed) withdrawValidator(key, validate);
    this.filed.clear();
    this.ajv = undefined;
    this.hierarchy = undefined;
    this.ids.clear();
    this.schemas.clear();
    this.sharingKeys.clear();
  }

  /**
   * The key the validator of `id` is shared under between contracts of this thread. Everything
   * that shapes the generated code beyond the schemas is in the salt: the dialect picks the AJV
   * class, `maxErrors` is compiled into the error caps.
   */
  private sharingKeyOf(id: string, direction: Direction): string | null {
    let key = this.sharingKeys.get(id);
    if (key === undefined) {
      const salt = `${this.dialect} ${direction} ${this.limits.maxErrors}`;
      const known = (other: string) => this.sharingKeys.get(other) === null;
      key = closureKey(id, (other) => this.schemas.get(other), salt, LIMITS.validationSharedClosureMaxChars, known) ?? null;
      this.sharingKeys.set(id, key);
    }
    return key;
  }

  /**
   * Transforms the schema at `root` and every schema its `$ref`s reach that is not compiled yet,
   * then adds them all; nothing is added when one fails, so a failure leaves no dangling ids.
   */
  private addUnit(ajv: AjvInstance, root: SchemaUnit, direction: Direction): string {
    const pending = new Map<string, string>();
    const queue: Array<[SchemaUnit, string]> = [];
    let nodes = 0;
    const { maxCompileSchemaNodes } = this.limits;
    const context: TransformContext = {
      document: this.document,
      dialect: this.dialect,
      direction,
      maxObjectProperties: this.limits.maxSchemaObjectProperties,
      hierarchy: (this.hierarchy ??= new SchemaHierarchy(this.document, this.dialect, maxCompileSchemaNodes)),
      refId: (unit) => {
        const key = unitKey(direction, unit);
        let id = this.ids.get(key) ?? pending.get(key);
        if (id === undefined) {
          id = `svc:${direction}/${this.nextId++}`;
          pending.set(key, id);
          queue.push([unit, id]);
        }
        return id;
      },
      hasFormat: (format) => hasFormat(ajv, format),
      countNode: () => {
        if (++nodes > maxCompileSchemaNodes) throw nodeBudgetExceeded(maxCompileSchemaNodes);
      },
    };

    const rootId = context.refId(root);
    const transformed: Array<[string, unknown]> = [];
    for (let next = 0; next < queue.length; next++) {
      const [unit, id] = queue[next]!;
      const node = resolveJsonPointer(this.document, unit.pointer);
      if (node === undefined) throw new SchemaCompileError(`$ref "#${unit.pointer}" does not resolve in the document`);
      transformed.push([id, transformSchema(node, context, unit)]);
    }
    for (const [key, id] of pending) this.ids.set(key, id);
    this.nodes += nodes;
    for (const [id, schema] of transformed) {
      this.schemas.set(id, schema);
      ajv.addSchema(schema as object, id);
    }
    return rootId;
  }

  /** A schema that is only a `$ref` is compiled as its target, so every use shares one function. */
  private followPlainRefs(pointer: string): string {
    let at = pointer;
    for (let hops = 0; hops < LIMITS.maxRefChainHops; hops++) {
      const node = resolveJsonPointer(this.document, at);
      if (!isJsonObject(node) || typeof node.$ref !== 'string') break;
      const plain = this.dialect === '3.0' ? node.nullable !== true : Object.keys(node).length === 1;
      const next = plain ? refToPointer(node.$ref) : undefined;
      if (next === undefined) break;
      at = next;
    }
    return at;
  }
}

/** Pointers start with `/` (or are empty), so the base marker cannot collide with one. */
function unitKey(direction: Direction, unit: SchemaUnit): string {
  return unit.base ? `${direction}base:${unit.pointer}` : direction + unit.pointer;
}
