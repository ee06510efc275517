/**
 * Form bodies whose array fields are written by a style: Swagger 2.0's formData `collectionFormat`
 * (csv by default, so `ids=1,2,3`), which the conversion keeps as each field's `encoding`, and an
 * OpenAPI 3 Encoding Object's `style` and `explode`. And multipart delimiters, which start a line.
 */
import { before, describe, it } from 'node:test';
import type { CompiledContract, ValidationOutcome } from '../../src/shared/validation';
import { assertInvalid, assertValid, request, textContract } from '../helpers/validation-contracts';

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

/** A contract of one OpenAPI 3 operation, `POST path`, whose request body has the media types of `content`; what posting a body to it gives. */
async function formPost(path: string, content: Record<string, unknown>, contentType = FORM['Content-Type']): Promise<(body: string) => ValidationOutcome> {
  const { contract } = await textContract(JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'form bodies', version: '1.0.0' },
    paths: { [path]: { post: { requestBody: { content }, responses: { 204: { description: 'stored' } } } } },
  }));
  return (body) => contract.validateInteraction({ request: request('POST', path, { headers: { 'Content-Type': contentType }, body }) });
}

describe('form bodies: array fields by collectionFormat (Swagger 2.0)', () => {
  let contract: CompiledContract;
  before(async () => {
    ({ contract } = await textContract(JSON.stringify({
      swagger: '2.0',
      info: { title: 'form arrays', version: '1.0.0' },
      paths: {
        '/orders': {
          parameters: [{ name: 'tags', in: 'formData', type: 'array', collectionFormat: 'pipes', items: { type: 'string' }, maxItems: 2 }],
          post: {
            consumes: ['application/x-www-form-urlencoded', 'multipart/form-data'],
            parameters: [
              { name: 'ids', in: 'formData', type: 'array', items: { type: 'integer' } },
              { name: 'words', in: 'formData', type: 'array', collectionFormat: 'ssv', items: { type: 'string' } },
              { name: 'notes', in: 'formData', type: 'array', collectionFormat: 'multi', items: { type: 'string', maxLength: 3 } },
            ],
            responses: { 204: { description: 'stored' } },
          },
        },
      },
    })));
  });
  const post = (body: string, headers: Record<string, string> = FORM) => contract.validateInteraction({ request: request('POST', '/orders', { headers, body }) });

  it('splits each field on its format\'s separator (csv when none is given)', () => {
    assertValid(post('ids=1,2,3&words=a%20b&notes=abc&notes=de&tags=x|y'));
    assertInvalid(post('ids=1,two'), 'request_invalid', 'request body field "ids": value "two" is not a valid integer');
    assertInvalid(post('tags=x|y|z'), 'request_invalid', 'request body /tags: must have at most 2 items');
  });

  it('reads multi as repeated fields, and repeated fields of a split format as more items', () => {
    assertInvalid(post('notes=abcd'), 'request_invalid', 'request body /notes/0: must have at most 3 characters');
    assertValid(post('notes=a,b'));
    assertValid(post('ids=1,2&ids=3'));
  });

  it('splits multipart fields the same way', () => {
    const body = '--b\r\nContent-Disposition: form-data; name="ids"\r\n\r\n4,5\r\n--b--';
    assertValid(post(body, { 'Content-Type': 'multipart/form-data; boundary=b' }));
    assertInvalid(post(body.replace('4,5', '4,x'), { 'Content-Type': 'multipart/form-data; boundary=b' }), 'request_invalid', 'request body field "ids": value "x" is not a valid integer');
  });
});

describe('form bodies: array fields by Encoding Object (OpenAPI 3)', () => {
  it('splits a field whose encoding is not exploded, and reads repeated fields by default', async () => {
    const post = await formPost('/search', {
      'application/x-www-form-urlencoded': {
        schema: { type: 'object', properties: { ids: { type: 'array', items: { type: 'integer' } }, more: { type: 'array', items: { type: 'integer' } } } },
        encoding: { ids: { style: 'form', explode: false } },
      },
    });
    assertValid(post('ids=1,2,3&more=4&more=5'));
    assertInvalid(post('more=4,5'), 'request_invalid', 'request body field "more": value "4,5" is not a valid integer');
  });
});

describe('form bodies: deepObject fields (OpenAPI 3)', () => {
  it('reads name[property] fields as one object, each member of its property\'s type', async () => {
    const post = await formPost('/people', {
      'application/x-www-form-urlencoded': {
        schema: {
          type: 'object',
          additionalProperties: false,
          properties: {
            name: { type: 'string' },
            address: { type: 'object', additionalProperties: false, required: ['city'], properties: { city: { type: 'string' }, floor: { type: 'integer', maximum: 200 } } },
          },
        },
        encoding: { address: { style: 'deepObject', explode: true } },
      },
    });
    assertValid(post('name=Ada&address%5Bcity%5D=London&address[floor]=3'));
    assertInvalid(post('address[floor]=300&address[city]=X'), 'request_invalid', 'request body /address/floor: must be <= 200');
    assertInvalid(post('address[floor]=top&address[city]=X'), 'request_invalid', 'request body field "address[floor]": value "top" is not a valid integer');
    assertInvalid(post('address[floor]=3'), 'request_invalid', 'request body /address: property "city" is required');
  });
});

describe('form bodies: multipart delimiters start a line', () => {
  it('keeps a part\'s content whole when it holds the boundary mid-line or ends in a line break', async () => {
    const post = await formPost('/notes', {
      'multipart/form-data': { schema: { type: 'object', properties: { text: { type: 'string', enum: ['see --b and --b--', 'two\r\nlines\r\n'] }, n: { type: 'integer' } } } },
    }, 'multipart/form-data; boundary=b');
    const part = (name: string, content: string) => `--b\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${content}\r\n`;
    assertValid(post(`${part('text', 'see --b and --b--')}${part('n', '7')}--b--\r\n`));
    assertValid(post(`${part('text', 'two\r\nlines\r\n')}--b--`));
    // Bare LF line breaks are read too.
    assertValid(post('--b\nContent-Disposition: form-data; name="n"\n\n7\n--b--\n'));
    assertInvalid(post(`${part('n', 'x--b')}--b--`), 'request_invalid', 'request body field "n": value "x--b" is not a valid integer');
  });
});
