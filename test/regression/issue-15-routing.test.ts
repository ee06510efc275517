/**
 * Issue 15, routing: the most literal template wins (`{name}:verb` over `{name}`), adjacent
 * parameters are split by their schemas, and path keys with query selectors
 * (`/#Action=DescribeStacks`) route on the request's query or headers.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { before, describe, test } from 'node:test';
import { loadSchema } from '../../src/shared/openapi/load-document';
import { listOperations } from '../../src/shared/openapi/operations';
import { CompiledContract } from '../../src/shared/validation/compiled-contract';
import type { HttpRequestInput } from '../../src/shared/validation/types';
import { fixturePath } from '../helpers/paths';

describe('issue 15: routing real-world path templates', () => {
  let contract: CompiledContract;
  const check = (method: string, path: string, extra: Partial<HttpRequestInput> = {}) =>
    contract.validateInteraction({ request: { method, path, headers: {}, body: '', ...extra } });

  before(async () => {
    const { document } = await loadSchema(fs.readFileSync(fixturePath('real-world', 'routing.yaml'), 'utf8'));
    contract = new CompiledContract(document);
  });

  test('a Google-style :verb path matches the {name}:verb template, not {name}', () => {
    // Only the :getStudyMetrics operation requires `metric`: its error proves which template matched.
    assert.deepEqual(check('GET', '/v1beta1/string:getStudyMetrics').errors, ['parameter "metric" in query is required']);
    assert.equal(check('GET', '/v1beta1/string:getStudyMetrics?metric=loss').valid, true);
    assert.equal(check('GET', '/v1beta1/string').valid, true);
  });

  test('adjacent parameters are split by their schemas, not greedily', () => {
    // A greedy split gives id "abc.jso" and extension "n": both would fail their schemas.
    assert.deepEqual(check('GET', '/profiles/abc.json'), { valid: true, errors: [] });
    assert.equal(check('GET', '/profiles/abc.xml').valid, true);
    assert.equal(check('GET', '/profiles/abc.txt').category, 'route_not_found');
  });

  test('query selectors route to the operation they name', () => {
    assert.deepEqual(check('GET', '/?Action=DescribeStacks'), { valid: true, errors: [] });
    // DeleteStack requires StackName: the error proves the selector chose it.
    assert.deepEqual(check('GET', '/?Action=DeleteStack').errors, ['parameter "StackName" in query is required']);
    assert.equal(check('GET', '/?Action=DeleteStack&StackName=prod').valid, true);
    assert.equal(check('DELETE', '/tags?resourceArn=arn%3Ax&tagKeys=a').valid, true);
    const unknown = check('GET', '/?Action=CreateStack');
    assert.equal(unknown.category, 'route_not_found');
    assert.match(unknown.errors[0]!, /^no operation of GET "\/" is selected by the request's query or headers \(path keys: /);
  });

  test('a selector that names a header parameter routes on the header', () => {
    const body = JSON.stringify({ id: 'x' });
    const headers = { 'content-type': 'application/json', 'X-Amz-Target': 'Hub.Associate' };
    assert.deepEqual(check('POST', '/', { headers, body }), { valid: true, errors: [] });
    assert.equal(check('POST', '/', { headers: { 'content-type': 'application/json' }, body }).category, 'route_not_found');
  });

  test('ListEndpoints shows the keys as written', async () => {
    const { document } = await loadSchema(fs.readFileSync(fixturePath('real-world', 'routing.yaml'), 'utf8'));
    const paths = listOperations(document).map((entry) => entry.path);
    assert.ok(paths.includes('/#Action=DescribeStacks'));
    assert.ok(paths.includes('/tags#resourceArn&tagKeys'));
  });
});
