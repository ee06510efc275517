/** Spec "Validation rules" 2 and 4: request body presence, content type, JSON, schema. */
import { before, describe, it } from 'node:test';
import { CompiledContract } from '../../src/shared/validation';
import type { OpenApiDocument } from '../../src/shared/openapi/document';
import { assertInvalid, assertValid, fixtureContract, request } from '../helpers/validation-contracts';

const JSON_TYPE = { 'Content-Type': 'application/json' };

function parserMessage(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${text} is valid JSON`);
}

describe('request body', () => {
  let contract: CompiledContract;
  before(async () => {
    contract = await fixtureContract('petstore-3.0.json');
  });
  const post = (path: string, body: unknown, headers: Record<string, string> = JSON_TYPE) =>
    contract.validateInteraction({ request: request('POST', path, { headers, body }) });

  it('is required when the document says so, optional otherwise', () => {
    assertInvalid(post('/pets', undefined), 'request_invalid', 'request body is required');
    assertValid(contract.validateInteraction({ request: request('PUT', '/pets/1') }));
  });

  it('accepts a body that matches its schema', () => {
    assertValid(post('/pets', { name: 'Rex', tag: 'dog' }));
  });

  it('matches the content type without its parameters and in any case', () => {
    assertValid(post('/pets', { name: 'Rex' }, { 'content-type': 'Application/JSON; charset=utf-8' }));
  });

  it('validates +json media types as JSON', () => {
    assertInvalid(
      post('/pets', { name: '' }, { 'Content-Type': 'application/vnd.petstore+json' }),
      'request_invalid',
      'request body /name: must have at least 1 character',
    );
  });

  it('refuses a content type the operation does not declare', () => {
    assertInvalid(
      post('/pets', 'Rex', { 'Content-Type': 'text/plain' }),
      'request_invalid',
      'request content type "text/plain" is not allowed (expected application/json, application/vnd.petstore+json, application/xml)',
    );
  });

  it('reads a body without content type as JSON when the operation takes JSON', () => {
    assertInvalid(post('/pets', {}, {}), 'request_invalid', 'request body: property "name" is required');
  });

  it('checks only presence and content type for media types that are neither JSON nor forms', () => {
    assertValid(post('/pets', '<pet><name>Rex</name></pet>', { 'Content-Type': 'application/xml' }));
    assertValid(post('/uploads', '--x\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\nbytes\r\n--x--', { 'Content-Type': 'multipart/form-data; boundary=x' }));
    assertInvalid(post('/uploads', 'bytes', {}), 'request_invalid', 'request content type is missing (expected multipart/form-data)');
  });

  it('matches media type ranges (application/*)', () => {
    assertInvalid(
      post('/notes', {}, { 'Content-Type': 'application/merge-patch+json' }),
      'request_invalid',
      'request body: property "text" is required',
    );
    assertValid(post('/notes', 'text=hi', { 'Content-Type': 'application/x-www-form-urlencoded' }));
    // Without a type, a body under a range is not assumed to be JSON: it could be a PDF.
    assertValid(post('/notes', '%PDF-1.4 binary', {}));
    assertValid(post('/notes', {}, {}));
    assertInvalid(
      post('/notes', 'hi', { 'Content-Type': 'text/plain' }),
      'request_invalid',
      'request content type "text/plain" is not allowed (expected application/*)',
    );
  });

  it('matches suffix ranges (application/*+json) after exact keys, as JSON', () => {
    assertValid(post('/patches', [], { 'Content-Type': 'application/json-patch+json' }));
    assertValid(post('/patches', { a: 1 }, { 'Content-Type': 'application/merge-patch+json' }));
    assertInvalid(post('/patches', {}, { 'Content-Type': 'application/vnd.acme+json; charset=utf-8' }), 'request_invalid', 'request body: property "a" is required');
    assertInvalid(
      post('/patches', { a: 1 }, { 'Content-Type': 'application/json' }),
      'request_invalid',
      'request content type "application/json" is not allowed (expected application/json-patch+json, application/*+json)',
    );
    assertInvalid(post('/patches', {}, {}), 'request_invalid', 'request body: must be array');
  });

  it('follows additionalProperties: false', () => {
    assertInvalid(post('/pets', { name: 'Rex', color: 'red' }), 'request_invalid', 'request body: unexpected property "color"');
  });

  it('checks property types', () => {
    assertInvalid(post('/pets', { name: 5 }), 'request_invalid', 'request body /name: must be string');
  });

  it('names nested values by JSON pointer and reports every violation', () => {
    assertValid(post('/orders', { items: [{ sku: 'a', price: 0, quantity: 2 }], customer: { email: 'a@example.com' } }));
    assertInvalid(
      post('/orders', { items: [{ sku: 'a', price: -1 }, { price: 'free', quantity: 0 }], customer: {}, note: 'x'.repeat(21) }),
      'request_invalid',
      'request body /items/0/price: must be >= 0',
      'request body /items/1: property "sku" is required',
      'request body /items/1/price: must be number',
      'request body /items/1/quantity: must be >= 1',
      'request body /customer: property "email" is required',
      'request body /note: must have at most 20 characters',
    );
    assertInvalid(post('/orders', { items: [], customer: { email: 'a@example.com' } }), 'request_invalid', 'request body /items: must have at least 1 item');
  });

  it('reports a body that is not JSON with the parser\'s reason', () => {
    const text = '{"name":';
    assertInvalid(post('/pets', text), 'request_invalid', `request body is not valid JSON: ${parserMessage(text)}`);
  });

  it('does not require readOnly properties in requests and refuses them there', () => {
    // Pet requires "id", which is readOnly.
    assertValid(contract.validateInteraction({ request: request('PUT', '/pets/1', { headers: JSON_TYPE, body: { name: 'Rex' } }) }));
    assertInvalid(
      contract.validateInteraction({ request: request('PUT', '/pets/1', { headers: JSON_TYPE, body: { id: 1, name: 'Rex' } }) }),
      'request_invalid',
      'request body: property "id" is read-only',
    );
  });

  it('parses a JSON media type declared without a schema', () => {
    const document = {
      openapi: '3.0.3',
      paths: { '/raw': { post: { requestBody: { content: { 'application/json': {} } }, responses: { '204': { description: 'ok' } } } } },
    } as unknown as OpenApiDocument;
    const raw = new CompiledContract(document);
    assertValid(raw.validateInteraction({ request: request('POST', '/raw', { body: { anything: [1, 2] } }) }));
    const text = 'not json';
    assertInvalid(
      raw.validateInteraction({ request: request('POST', '/raw', { body: text }) }),
      'request_invalid',
      `request body is not valid JSON: ${parserMessage(text)}`,
    );
  });

  it('ignores a body the operation does not declare', () => {
    assertValid(contract.validateInteraction({ request: request('DELETE', '/pets/1', { body: 'anything' }) }));
  });
});
