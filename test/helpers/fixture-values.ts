/**
 * Fixture-engine test helpers: generate values for an inline schema (with optional components)
 * under many seeds, so a keyword test checks a property of every draw, not one lucky value.
 */
import type { JsonObject, JsonValue } from '../../src/shared/json';
import { createScope, generateValue, type Direction, type GeneratedValue } from '../../src/shared/fixture-generator';
import type { OpenApiDocument } from '../../src/shared/openapi/document';

export interface ValueTestOptions {
  openapi?: '3.0.3' | '3.1.0';
  /** `components.schemas` of the surrounding document. */
  schemas?: Record<string, unknown>;
  direction?: Direction;
  useExamples?: boolean;
}

/** Seeds each keyword test draws with (enough to exercise the random choices, fast enough for a unit test). */
export const SEEDS = Array.from({ length: 40 }, (_, i) => `seed-${i}`);

export function documentWithSchemas(schemas: Record<string, unknown> = {}, openapi = '3.0.3'): OpenApiDocument {
  return { openapi, info: { title: 'test', version: '1.0.0' }, paths: {}, components: { schemas } } as unknown as OpenApiDocument;
}

export function generateFor(schema: unknown, seed = 'seed', options: ValueTestOptions = {}): GeneratedValue {
  const document = documentWithSchemas(options.schemas, options.openapi);
  return generateValue(
    {
      scope: createScope(document),
      direction: options.direction ?? 'response',
      useExamples: options.useExamples ?? false,
      seed,
    },
    schema as JsonValue,
  );
}

/** The value for every seed in SEEDS; fails the test when the engine reports it inexact. */
export function valuesFor(schema: unknown, options: ValueTestOptions = {}): JsonValue[] {
  return SEEDS.map((seed) => {
    const generated = generateFor(schema, seed, options);
    if (!generated.exact) throw new Error(`inexact value for ${JSON.stringify(schema)}: ${generated.problems.join('; ')}`);
    return generated.value;
  });
}

export function asObject(value: JsonValue): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`not an object: ${JSON.stringify(value)}`);
  return value;
}
