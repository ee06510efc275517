/** Builders for the validation engine's unit tests: fixture documents, contracts, interactions. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadSchema } from '../../src/shared/openapi/load-document';
import type { OpenApiDocument } from '../../src/shared/openapi/document';
import {
  CompiledContract,
  type ContractOptions,
  type ErrorCategory,
  type HttpRequestInput,
  type HttpResponseInput,
  type ValidationOutcome,
} from '../../src/shared/validation';
import { fixturePath } from './paths';

/** A document given as registration text, through the real intake (parse, v2 conversion, checks), and its contract. */
export async function textContract(text: string, options?: Partial<ContractOptions>): Promise<{ document: OpenApiDocument; contract: CompiledContract }> {
  const { document } = await loadSchema(text);
  return { document, contract: new CompiledContract(document, options) };
}

/** A document of test/fixtures/validation, through the real intake. */
export async function loadValidationFixture(name: string): Promise<OpenApiDocument> {
  return (await textContract(readFileSync(fixturePath('validation', name), 'utf8'))).document;
}

export async function fixtureContract(name: string, options?: Partial<ContractOptions>): Promise<CompiledContract> {
  return (await textContract(readFileSync(fixturePath('validation', name), 'utf8'), options)).contract;
}

interface MessageInit {
  headers?: Record<string, string>;
  /** A string is sent as is; anything else is JSON-encoded. */
  body?: unknown;
}

function bodyText(body: unknown): string {
  if (body === undefined) return '';
  return typeof body === 'string' ? body : JSON.stringify(body);
}

export function request(method: string, path: string, init: MessageInit = {}): HttpRequestInput {
  return { method, path, headers: init.headers ?? {}, body: bodyText(init.body) };
}

export function response(statusCode: number, init: MessageInit = {}): HttpResponseInput {
  return { statusCode, headers: init.headers ?? {}, body: bodyText(init.body) };
}

export function assertValid(outcome: ValidationOutcome): void {
  assert.deepEqual(outcome, { valid: true, errors: [] });
}

/** The outcome lists exactly `errors`, in order, and its category is the first failure's. */
export function assertInvalid(outcome: ValidationOutcome, category: ErrorCategory, ...errors: string[]): void {
  assert.deepEqual(outcome, { valid: false, errors, category });
}
