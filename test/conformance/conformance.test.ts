/**
 * The Node.js runner of the shared client conformance suite: every case in clients/conformance/cases
 * runs, as one test, against a real svc server through the Node.js client `ContractValidator`. Each
 * call is mapped onto the client's method, the result (or error) is turned into its canonical
 * snake_case form and matched against the case's expectation (clients/conformance/README.md).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import {
  ContractValidator,
  isContractValidatorError,
  type AutoRegisterConfig,
  type CapturedInteraction,
  type ContractValidatorOptions,
  type EndpointUsage,
  type GenerateOptions,
  type InteractionPair,
  type SchemaCallOptions,
} from '@svc/client';
import { REPO_ROOT } from '../helpers/paths';
import * as canonical from './canonical';
import type { Canonical } from './canonical';
import { findMismatches } from './match';
import { startSvcServer, unusedLoopbackAddress, type SvcServerProcess } from './svc-server';

const CONFORMANCE_DIR = path.join(REPO_ROOT, 'clients', 'conformance');
const CASES_DIR = path.join(CONFORMANCE_DIR, 'cases');
const DOCUMENTS_DIR = path.join(CONFORMANCE_DIR, 'documents');

/** A single case gets this long, its own server start included. */
const CASE_TIMEOUT_MS = 60_000;

interface ConformanceCase {
  name: string;
  description: string;
  server?: { apiKeys?: string[] };
  client?: { apiKey?: string; address?: 'down'; deadline_ms?: number };
  steps: Step[];
}

interface Step {
  call: string;
  args: Record<string, unknown>;
  /** Exactly one of `result` and `error`; absent: the call must succeed. */
  expect?: { result?: unknown; error?: unknown };
}

type Outcome = { ok: true; value: Canonical } | { ok: false; error: { code: string; message: string } };

const cases = fs.readdirSync(CASES_DIR)
  .filter((name) => name.endsWith('.json'))
  .sort()
  .map((file) => ({ file, conformanceCase: JSON.parse(fs.readFileSync(path.join(CASES_DIR, file), 'utf8')) as ConformanceCase }));

let sharedServer: SvcServerProcess | undefined;

before(async () => {
  sharedServer = await startSvcServer();
});

after(async () => {
  await sharedServer?.stop();
});

test('the conformance suite has cases', () => {
  assert.ok(cases.length > 0, `no case files in ${CASES_DIR}`);
});

for (const { file, conformanceCase } of cases) {
  test(`${conformanceCase.name} (${file})`, { timeout: CASE_TIMEOUT_MS }, async () => {
    assertWellFormed(file, conformanceCase);
    const ownServer = conformanceCase.server?.apiKeys ? await startSvcServer({ apiKeys: conformanceCase.server.apiKeys }) : undefined;
    try {
      const address = conformanceCase.client?.address === 'down'
        ? await unusedLoopbackAddress()
        : (ownServer ?? sharedServer!).address;
      const options: ContractValidatorOptions = { address };
      if (conformanceCase.client?.apiKey !== undefined) options.apiKey = conformanceCase.client.apiKey;
      if (conformanceCase.client?.deadline_ms !== undefined) options.deadlineMs = conformanceCase.client.deadline_ms;
      const client = new ContractValidator(options);
      try {
        for (const [index, step] of conformanceCase.steps.entries()) {
          await runStep(client, conformanceCase.name, index, step);
        }
      } finally {
        client.close();
      }
    } finally {
      await ownServer?.stop();
    }
  });
}

async function runStep(client: ContractValidator, caseName: string, index: number, step: Step): Promise<void> {
  const outcome = await perform(client, step);
  const actual: Canonical = outcome.ok ? outcome.value : outcome.error;
  const failure = (problem: string): string =>
    `${caseName}, step ${index} (${step.call}): ${problem}\n  expected: ${JSON.stringify(step.expect ?? 'success')}\n  actual ${outcome.ok ? 'result' : 'error'}: ${JSON.stringify(actual)}`;

  if (step.expect === undefined || 'result' in step.expect) {
    if (!outcome.ok) assert.fail(failure('the call failed'));
    if (step.expect === undefined) return;
    const mismatches = findMismatches(step.expect.result, outcome.value);
    if (mismatches.length > 0) assert.fail(failure(mismatches.map(({ at, problem }) => `at ${at || '(result)'}: ${problem}`).join('; ')));
    return;
  }
  if (outcome.ok) assert.fail(failure('the call succeeded, an error was expected'));
  const mismatches = findMismatches(step.expect.error, outcome.error);
  if (mismatches.length > 0) assert.fail(failure(mismatches.map(({ at, problem }) => `at ${at || '(error)'}: ${problem}`).join('; ')));
}

/** Runs one call; client errors become the canonical error, anything else is a bug of the runner or client. */
async function perform(client: ContractValidator, step: Step): Promise<Outcome> {
  try {
    return { ok: true, value: await call(client, step.call, step.args ?? {}) };
  } catch (error) {
    if (isContractValidatorError(error)) return { ok: false, error: { code: error.code, message: error.details } };
    throw error;
  }
}

/** The suite's snake_case calls → the client's methods, results → canonical forms. */
async function call(client: ContractValidator, name: string, args: Record<string, unknown>): Promise<Canonical> {
  switch (name) {
    case 'register_schema': {
      const document = path.join(DOCUMENTS_DIR, text(args, 'document'));
      const version = optionalText(args, 'version');
      const registration = version === undefined
        ? await client.registerSchema(text(args, 'schema_id'), document)
        : await client.registerSchemaWithVersion(text(args, 'schema_id'), document, version);
      return canonical.schemaRegistration(registration);
    }
    case 'validate': {
      const { request, response } = interactionPair(args);
      return canonical.validationResult(await client.validate(request, response, schemaOptions(args)));
    }
    case 'validate_many': {
      const pairs = list(args, 'interactions').map((interaction) => interactionPair(interaction as Record<string, unknown>));
      return (await client.validateMany(pairs, schemaOptions(args))).map(canonical.validationResult);
    }
    case 'compare_schemas':
      return canonical.compareResult(await client.compareSchemas(text(args, 'schema_id'), optionalText(args, 'old_version'), optionalText(args, 'new_version')));
    case 'generate_fixture':
      return canonical.generatedFixture(await client.generateFixture(text(args, 'method'), text(args, 'path'), generateOptions(args)));
    case 'generate_response':
      return canonical.generatedResponse(await client.generateResponse(text(args, 'method'), text(args, 'path'), generateOptions(args)));
    case 'generate_request_body':
      return canonical.jsonValue(await client.generateRequestBody(text(args, 'method'), text(args, 'path'), generateOptions(args)));
    case 'list_endpoints':
      return (await client.listEndpoints(schemaOptions(args))).map(canonical.endpointInfo);
    case 'register_consumer':
      return canonical.consumerInfo(await client.registerConsumer({
        consumerId: text(args, 'consumer_id'),
        consumerVersion: text(args, 'consumer_version'),
        schemaId: text(args, 'schema_id'),
        schemaVersion: text(args, 'schema_version'),
        environment: optionalText(args, 'environment'),
        usedEndpoints: list(args, 'used_endpoints').map((usage) => endpointUsage(usage as Record<string, unknown>)),
      }));
    case 'list_consumers':
      return (await client.listConsumers(text(args, 'schema_id'), optionalText(args, 'environment'))).map(canonical.consumerInfo);
    case 'deregister_consumer':
      await client.deregisterConsumer(text(args, 'consumer_id'), text(args, 'schema_id'), optionalText(args, 'environment'));
      return null;
    case 'can_i_deploy':
      return canonical.canIDeployResult(await client.canIDeploy(text(args, 'schema_id'), text(args, 'new_version'), optionalText(args, 'environment')));
    case 'build_consumer_from_interactions':
      return canonical.consumerRegistration(await client.buildConsumerFromInteractions(capturedInteractions(args), autoRegisterConfig(args)));
    case 'register_consumer_from_interactions':
      return canonical.consumerInfo(await client.registerConsumerFromInteractions(capturedInteractions(args), autoRegisterConfig(args)));
    default:
      throw new Error(`unknown call "${name}"`);
  }
}

function interactionPair(value: Record<string, unknown>): InteractionPair {
  const request = object(value, 'request');
  const response = object(value, 'response');
  return {
    request: { method: text(request, 'method'), path: text(request, 'path'), headers: headers(request), body: body(request) },
    response: { statusCode: integer(response, 'status_code'), headers: headers(response), body: body(response) },
  };
}

function capturedInteractions(args: Record<string, unknown>): CapturedInteraction[] {
  return list(args, 'interactions').map((interaction) => interactionPair(interaction as Record<string, unknown>));
}

function autoRegisterConfig(args: Record<string, unknown>): AutoRegisterConfig {
  const config = object(args, 'config');
  return {
    consumerId: text(config, 'consumer_id'),
    consumerVersion: text(config, 'consumer_version'),
    environment: optionalText(config, 'environment'),
    schemaVersion: optionalText(config, 'schema_version'),
    schemaId: optionalText(config, 'schema_id'),
  };
}

function endpointUsage(usage: Record<string, unknown>): EndpointUsage {
  return { method: text(usage, 'method'), path: text(usage, 'path'), usedFields: list(usage, 'used_fields').map(String) };
}

function schemaOptions(args: Record<string, unknown>): SchemaCallOptions {
  return { schemaId: optionalText(args, 'schema_id'), schemaVersion: optionalText(args, 'schema_version') };
}

function generateOptions(args: Record<string, unknown>): GenerateOptions {
  const options: GenerateOptions = { schemaId: optionalText(args, 'schema_id') };
  if (args.status_code !== undefined) options.statusCode = integer(args, 'status_code');
  if (args.use_examples !== undefined) options.useExamples = Boolean(args.use_examples);
  return options;
}

/** A JSON body: `null` or absent is no body; a string is sent as it is; anything else is JSON-encoded by the client. */
function body(message: Record<string, unknown>): unknown {
  return message.body ?? undefined;
}

function headers(message: Record<string, unknown>): Record<string, string> | undefined {
  return message.headers === undefined ? undefined : (object(message, 'headers') as Record<string, string>);
}

// ---- reading case arguments: a malformed case fails loudly instead of sending nonsense

function text(args: Record<string, unknown>, key: string): string {
  const value = args[key];
  if (typeof value !== 'string') throw new Error(`argument ${key} must be a string, got ${JSON.stringify(value)}`);
  return value;
}

function optionalText(args: Record<string, unknown>, key: string): string | undefined {
  return args[key] === undefined ? undefined : text(args, key);
}

function integer(args: Record<string, unknown>, key: string): number {
  const value = args[key];
  if (!Number.isInteger(value)) throw new Error(`argument ${key} must be an integer, got ${JSON.stringify(value)}`);
  return value as number;
}

function list(args: Record<string, unknown>, key: string): unknown[] {
  const value = args[key];
  if (!Array.isArray(value)) throw new Error(`argument ${key} must be an array, got ${JSON.stringify(value)}`);
  return value;
}

function object(args: Record<string, unknown>, key: string): Record<string, unknown> {
  const value = args[key];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`argument ${key} must be an object, got ${JSON.stringify(value)}`);
  return value as Record<string, unknown>;
}

function assertWellFormed(file: string, conformanceCase: ConformanceCase): void {
  assert.equal(typeof conformanceCase.name, 'string', `${file}: name`);
  assert.ok(Array.isArray(conformanceCase.steps) && conformanceCase.steps.length > 0, `${file}: steps must be a non-empty array`);
  for (const [index, step] of conformanceCase.steps.entries()) {
    assert.equal(typeof step.call, 'string', `${file} step ${index}: call`);
    if (step.expect !== undefined) {
      const keys = Object.keys(step.expect);
      assert.ok(keys.length === 1 && (keys[0] === 'result' || keys[0] === 'error'), `${file} step ${index}: expect holds exactly one of result, error`);
    }
  }
}
