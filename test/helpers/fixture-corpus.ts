/**
 * The fixture invariant, as data: every operation of every document under
 * test/fixtures/fixture-corpus gets a generated fixture, and the validation engine judges it
 * against the same document. Used by test/unit/fixtures-invariant.test.ts (which fails on any
 * unexplained failure) and test/helpers/fixture-pass-rate.ts (which prints the rates).
 */
import fs from 'node:fs';
import path from 'node:path';
import { errorMessage } from '../../src/shared/errors';
import { generateFixture } from '../../src/shared/fixture-generator';
import { essence, isJsonMediaType } from '../../src/shared/validation/media-type';
import { loadSchema } from '../../src/shared/openapi/load-document';
import { listOperations } from '../../src/shared/openapi/operations';
import { CompiledContract } from '../../src/shared/validation';
import { fixturePath } from './paths';

export const CORPUS_ROOT = fixturePath('fixture-corpus');

export type OutcomeKind =
  /** The engine accepted the fixture. */
  | 'valid'
  /** The engine rejected it: a broken invariant unless listed as an exception. */
  | 'invalid'
  /** Generation refused an operation whose bodies are JSON: also a broken invariant. */
  | 'refused'
  /** Generation refused an operation with a non-JSON body (multipart...): outside the invariant. */
  | 'not-json';

export interface OperationOutcome {
  /** Corpus-relative file name, `hard/recursion-3.0.yaml`. */
  document: string;
  method: string;
  path: string;
  useExamples: boolean;
  kind: OutcomeKind;
  /** Engine errors, or the refusal message. */
  errors: string[];
}

/** Every OpenAPI document of the corpus (JSON or YAML), sorted. */
export function corpusDocuments(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(json|ya?ml)$/.test(entry.name)) found.push(path.relative(CORPUS_ROOT, full));
    }
  };
  walk(CORPUS_ROOT);
  return found.sort();
}

/**
 * Generates and validates a fixture for every operation of one document, with and without
 * examples. `document` is corpus-relative, or an absolute path to a document elsewhere.
 */
export async function checkDocument(document: string): Promise<OperationOutcome[]> {
  const file = path.isAbsolute(document) ? document : path.join(CORPUS_ROOT, document);
  const loaded = await loadSchema(fs.readFileSync(file, 'utf8'));
  const contract = new CompiledContract(loaded.document);
  const outcomes: OperationOutcome[] = [];
  try {
    for (const { method, path: template, operation } of listOperations(loaded.document)) {
      for (const useExamples of [false, true]) {
        const base = { document, method, path: template, useExamples };
        try {
          const fixture = generateFixture(loaded.document, { method, path: template, useExamples });
          const result = contract.validateInteraction(fixture);
          outcomes.push({ ...base, kind: result.valid ? 'valid' : 'invalid', errors: result.errors });
        } catch (error) {
          const kind = offersOnlyNonJsonBodies(operation) ? 'not-json' : 'refused';
          outcomes.push({ ...base, kind, errors: [errorMessage(error)] });
        }
      }
    }
  } finally {
    contract.close();
  }
  return outcomes;
}

/** Whether the request body or some response offers media types, none of them JSON. */
function offersOnlyNonJsonBodies(operation: Record<string, unknown>): boolean {
  const contents: unknown[] = [];
  const body = operation.requestBody as { content?: unknown } | undefined;
  if (body?.content) contents.push(body.content);
  const responses = (operation.responses ?? {}) as Record<string, { content?: unknown }>;
  for (const response of Object.values(responses)) if (response?.content) contents.push(response.content);
  return contents.some((content) => {
    const types = Object.keys(content as object);
    return types.length > 0 && !types.some((type) => isJsonMediaType(essence(type)) || type.includes('*'));
  });
}

export interface DocumentRate {
  document: string;
  /** Fixtures the invariant covers (both modes: without and with examples). */
  covered: number;
  valid: number;
  notJson: number;
}

export function ratesByDocument(outcomes: OperationOutcome[]): DocumentRate[] {
  const rates = new Map<string, DocumentRate>();
  for (const outcome of outcomes) {
    let rate = rates.get(outcome.document);
    if (!rate) rates.set(outcome.document, (rate = { document: outcome.document, covered: 0, valid: 0, notJson: 0 }));
    if (outcome.kind === 'not-json') rate.notJson++;
    else rate.covered++;
    if (outcome.kind === 'valid') rate.valid++;
  }
  return [...rates.values()];
}
