/**
 * Every generated request and response is checked by the validator itself before it is handed
 * out. The generator builds values from the keywords it knows and checks them with its own quick
 * conformance test (schema-check.ts), but validation knows more (dependentRequired, if/then/else,
 * counted contains, a parameter read back from its serialization): a fixture svc's own validation
 * refuses must never be answered, so such a one is refused, quoting what validation said.
 */
import { LIMITS } from '../limits';
import type { OpenApiDocument } from '../openapi/document';
import { stringFieldSize } from '../pool-protocol/protobuf-wire';
import { CompiledContract } from '../validation/compiled-contract';
import type { ValidationOutcome } from '../validation/types';
import { refusals } from './refusals';
import type { GeneratedRequestRecord, GeneratedResponseRecord } from './types';

/** One compiled contract per loaded document, as long as the document lives (operations compile on first use). */
const contracts = new WeakMap<OpenApiDocument, CompiledContract>();

function contractOf(document: OpenApiDocument): CompiledContract {
  let contract = contracts.get(document);
  if (contract === undefined) contracts.set(document, (contract = new CompiledContract(document)));
  return contract;
}

/** The request, once consumer-mode validation of it passes. */
export function validatedRequest(document: OpenApiDocument, request: GeneratedRequestRecord, where: string): GeneratedRequestRecord {
  refuseIfTooLarge(request, `request for ${where}`);
  refuseIfTooManyHeaders(request, `request for ${where}`);
  refuseIfHeadersTooLarge(request, `request for ${where}`);
  refuseUnlessValid(contractOf(document).validateInteraction({ request }), `request for ${where}`);
  return request;
}

/**
 * The response, once producer-mode validation of it passes, routed by the generated request when
 * there is one, else by the path template. A key that only a request's query or headers select
 * (`/#Action=AddTags`) cannot be routed by its template alone: without a request it is left unchecked.
 */
export function validatedResponse(
  document: OpenApiDocument,
  route: { method: string; path: string; request?: GeneratedRequestRecord },
  response: GeneratedResponseRecord,
  where: string,
): GeneratedResponseRecord {
  refuseIfTooLarge(response, where);
  refuseIfTooManyHeaders(response, where);
  refuseIfHeadersTooLarge(response, where);
  const outcome = contractOf(document).validateProducerResponse({ ...route, response });
  if (route.request !== undefined || outcome.category !== 'route_not_found') refuseUnlessValid(outcome, where);
  return response;
}

/**
 * Headers count with the body: required headers of a megabyte each (or one large example reused by
 * every parameter) made a 100 MB fixture that reached the main thread and failed as it was sent.
 * Checked before validation, whose own body limit is larger.
 */
function refuseIfTooLarge(record: GeneratedRequestRecord | GeneratedResponseRecord, what: string): void {
  let chars = record.body.length + ('path' in record ? record.path.length : 0);
  for (const [name, value] of Object.entries(record.headers)) chars += name.length + value.length;
  if (chars > LIMITS.fixtureMaxBodyBytes) throw refusals.tooLarge(what, chars, LIMITS.fixtureMaxBodyBytes);
}

/**
 * Validation reads at most validationMaxHeaderEntries headers a side and fails the call beyond
 * them: 3,000 required header parameters gave a fixture that ValidateInteraction then refused.
 */
function refuseIfTooManyHeaders(record: GeneratedRequestRecord | GeneratedResponseRecord, what: string): void {
  const entries = Object.keys(record.headers).length;
  if (entries > LIMITS.validationMaxHeaderEntries) throw refusals.tooManyHeaders(what, entries, LIMITS.validationMaxHeaderEntries);
}

/**
 * Validation reads at most validationMaxHeaderBytes of a side's headers (their map entries as sent,
 * UTF-8 with their framing) and fails the call beyond them: two required headers of 600,000
 * characters gave a fixture that ValidateInteraction then refused.
 */
function refuseIfHeadersTooLarge(record: GeneratedRequestRecord | GeneratedResponseRecord, what: string): void {
  let bytes = 0;
  for (const [name, value] of Object.entries(record.headers)) {
    // As validation-codec.ts counts them: the embedded entry's key and value fields.
    bytes += stringFieldSize(Buffer.byteLength(name)) + stringFieldSize(Buffer.byteLength(value));
  }
  if (bytes > LIMITS.validationMaxHeaderBytes) throw refusals.headersTooLarge(what, bytes, LIMITS.validationMaxHeaderBytes);
}

function refuseUnlessValid(outcome: ValidationOutcome, what: string): void {
  if (!outcome.valid) throw refusals.noValidValue(what, outcome.errors.map((error) => `the one generated fails validation: ${error}`));
}
