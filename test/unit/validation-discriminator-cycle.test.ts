/**
 * Polymorphism whose subtypes extend their base: `Pet: discriminator + oneOf [Cat, Dog]` with
 * `Cat: allOf [Pet, ...]` (a cycle of `$ref`s), and plain inheritance (a discriminator `mapping`
 * without a union), also with the discriminator in an inline `allOf` member of the base (Microsoft
 * Graph). The subtype's reference back means the base without its dispatch, so bodies validate
 * instead of "the schema refers to itself without end". Both OpenAPI 3.0 and 3.1.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { loadSchema } from '../../src/shared/openapi/load-document';
import { CompiledContract } from '../../src/shared/validation';
import { assertInvalid, assertValid, request, response } from '../helpers/validation-contracts';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (name: string) => ({ content: { 'application/json': { schema: ref(name) } } });

/** One operation per pattern: the request body and the response body are the same schema. */
function operation(schema: string, status: string) {
  return { post: { requestBody: { required: true, ...json(schema) }, responses: { [status]: { description: 'ok', ...json(schema) } } } };
}

function polymorphismDocument(openapi: string): object {
  return {
    openapi,
    info: { title: 'polymorphism with cycles', version: '1.0.0' },
    paths: {
      '/pets': operation('Pet', '201'),
      '/vehicles': operation('Vehicle', '200'),
      '/announcements': operation('Announcement', '200'),
      '/issues': operation('Issue', '200'),
      '/cats/{id}': {
        get: {
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
          responses: { '200': { description: 'a cat', ...json('Cat') } },
        },
      },
    },
    components: {
      schemas: {
        // The brief's pattern: the base holds the discriminator and the union of its subtypes.
        Pet: {
          // Nullable, in each version's words: null is admitted before any dispatch.
          ...(openapi.startsWith('3.0') ? { type: 'object', nullable: true } : { type: ['object', 'null'] }),
          required: ['petType'],
          properties: { petType: { type: 'string' }, id: { type: 'integer', readOnly: true } },
          discriminator: { propertyName: 'petType', mapping: { Cat: '#/components/schemas/Cat', Dog: '#/components/schemas/Dog' } },
          oneOf: [ref('Cat'), ref('Dog')],
        },
        Cat: { allOf: [ref('Pet'), { type: 'object', properties: { claws: { type: 'integer' } } }] },
        Dog: {
          allOf: [
            ref('Pet'),
            // A base nested in a property is a new value: it keeps its dispatch.
            { type: 'object', properties: { bark: { type: 'boolean' }, friend: ref('Pet') } },
          ],
        },
        // Plain inheritance: a mapping and no union; Truck is a subtype by its allOf (implicit name).
        Vehicle: {
          type: 'object',
          required: ['kind'],
          properties: { kind: { type: 'string' }, wheels: { type: 'integer', minimum: 1 } },
          discriminator: { propertyName: 'kind', mapping: { car: '#/components/schemas/Car', bike: 'Bike' } },
        },
        Car: { allOf: [ref('Vehicle'), { type: 'object', required: ['doors'], properties: { doors: { type: 'integer' } } }] },
        Bike: { allOf: [ref('Vehicle'), { type: 'object', properties: { gears: { type: 'integer', maximum: 30 } } }] },
        Truck: { allOf: [ref('Vehicle'), { type: 'object', required: ['axles'], properties: { axles: { type: 'integer' } } }] },
        // Microsoft Graph's pattern: the discriminator sits in an inline allOf member of a base that
        // itself extends a parent, and each subtype extends the base.
        Entity: { type: 'object', properties: { id: { type: 'string' }, '@odata.type': { type: 'string' } } },
        Announcement: {
          allOf: [ref('Entity'), {
            discriminator: { propertyName: '@odata.type', mapping: { '#issue': '#/components/schemas/Issue', '#update': '#/components/schemas/Update' } },
            properties: { title: { type: 'string' } },
          }],
        },
        Issue: { allOf: [ref('Announcement'), { required: ['severity'], properties: { severity: { type: 'integer' } } }] },
        Update: { allOf: [ref('Announcement'), { properties: { channel: { type: 'string' } } }] },
      },
    },
  };
}

for (const openapi of ['3.0.3', '3.1.0']) {
  describe(`discriminator with subtypes that extend their base (OpenAPI ${openapi})`, () => {
    let contract: CompiledContract;
    before(async () => {
      const { document } = await loadSchema(JSON.stringify(polymorphismDocument(openapi)));
      contract = new CompiledContract(document);
    });
    const sent = (path: string, body: unknown) => contract.validateInteraction({ request: request('POST', path, { body }) });
    const answered = (path: string, status: number, body: unknown) =>
      contract.validateProducerResponse({ method: 'POST', path, response: response(status, { body }) });

    describe('base with discriminator and oneOf, subtypes allOf the base', () => {
      it('accepts each subtype in requests and responses', () => {
        assertValid(sent('/pets', { petType: 'Cat', claws: 3 }));
        assertValid(sent('/pets', { petType: 'Dog', bark: true }));
        assertValid(answered('/pets', 201, { petType: 'Cat', claws: 3, id: 7 }));
        assertValid(answered('/pets', 201, { petType: 'Dog', bark: false, id: 8 }));
      });

      it("reports the selected subtype's violations, and the base's through the subtype", () => {
        assertInvalid(sent('/pets', { petType: 'Cat', claws: 'many' }), 'request_invalid', 'request body /claws: must be integer');
        assertInvalid(answered('/pets', 201, { petType: 'Dog', bark: 'loud' }), 'response_invalid', 'response body /bark: must be boolean');
        assertInvalid(answered('/pets', 201, { petType: 'Cat', id: 'seven' }), 'response_invalid', 'response body /id: must be integer');
      });

      it('admits null for a nullable base', () => {
        assertValid(sent('/pets', null));
        assertValid(answered('/pets', 201, null));
      });

      it('requires a tag the union names', () => {
        assertInvalid(sent('/pets', { claws: 3 }), 'request_invalid', 'request body: property "petType" is required');
        assertInvalid(answered('/pets', 201, { petType: 'Cow' }), 'response_invalid', 'response body /petType: must be one of "Cat", "Dog"');
        assertInvalid(sent('/pets', [{ petType: 'Cat' }]), 'request_invalid', 'request body: must be object or null');
      });

      it("keeps the base's readOnly rule in the subtype (request only)", () => {
        assertInvalid(sent('/pets', { petType: 'Cat', claws: 3, id: 7 }), 'request_invalid', 'request body: property "id" is read-only');
      });

      it('dispatches again for a base nested inside a subtype', () => {
        assertValid(sent('/pets', { petType: 'Dog', bark: true, friend: { petType: 'Cat', claws: 1 } }));
        assertInvalid(
          sent('/pets', { petType: 'Dog', bark: true, friend: { petType: 'Cat', claws: 'sharp' } }),
          'request_invalid',
          'request body /friend/claws: must be integer',
        );
        assertInvalid(
          sent('/pets', { petType: 'Dog', friend: { petType: 'Bird' } }),
          'request_invalid',
          'request body /friend/petType: must be one of "Cat", "Dog"',
        );
      });

      it('validates a subtype used on its own against the base without its dispatch', () => {
        const cat = (body: unknown) => contract.validateProducerResponse({ method: 'GET', path: '/cats/1', response: response(200, { body }) });
        assertValid(cat({ petType: 'Cat', claws: 3 }));
        assertInvalid(cat({ claws: 3 }), 'response_invalid', 'response body: property "petType" is required');
        assertInvalid(cat({ petType: 'Cat', claws: 2.5 }), 'response_invalid', 'response body /claws: must be integer');
      });
    });

    describe('plain inheritance: discriminator mapping without a union', () => {
      it('validates against the subtype the tag maps to', () => {
        assertValid(sent('/vehicles', { kind: 'car', doors: 4 }));
        assertValid(answered('/vehicles', 200, { kind: 'bike', gears: 21 }));
        assertInvalid(sent('/vehicles', { kind: 'car' }), 'request_invalid', 'request body: property "doors" is required');
        assertInvalid(answered('/vehicles', 200, { kind: 'bike', gears: 31 }), 'response_invalid', 'response body /gears: must be <= 30');
      });

      it('selects a subtype that extends the base by its component name when the mapping omits it', () => {
        assertValid(sent('/vehicles', { kind: 'Truck', axles: 3 }));
        assertInvalid(answered('/vehicles', 200, { kind: 'Truck' }), 'response_invalid', 'response body: property "axles" is required');
      });

      it("applies the base's own constraints once, with or without a subtype", () => {
        assertInvalid(sent('/vehicles', { kind: 'car', doors: 2, wheels: 0 }), 'request_invalid', 'request body /wheels: must be >= 1');
        assertInvalid(answered('/vehicles', 200, { wheels: 4 }), 'response_invalid', 'response body: property "kind" is required');
      });

      it('leaves a tag that names no subtype to the base alone (the set of subtypes is open)', () => {
        assertValid(sent('/vehicles', { kind: 'boat', doors: 'none' }));
        assertInvalid(sent('/vehicles', { kind: 'boat', wheels: 'none' }), 'request_invalid', 'request body /wheels: must be integer');
      });
    });

    describe('a discriminator in an inline allOf member of the base', () => {
      it('validates a subtype used on its own, and dispatches from the base to it', () => {
        assertValid(sent('/issues', { '@odata.type': '#issue', id: 'a', title: 't', severity: 2 }));
        assertValid(answered('/announcements', 200, { '@odata.type': '#update', channel: 'mail' }));
        assertInvalid(sent('/announcements', { '@odata.type': '#issue', title: 't' }), 'request_invalid', 'request body: property "severity" is required');
        assertInvalid(answered('/issues', 200, { severity: 'high' }), 'response_invalid', 'response body /severity: must be integer');
      });
    });

    it('compiles without a recursion failure for every body shape', () => {
      const bodies = [{}, { petType: 'Cat' }, { petType: 'Dog' }, { kind: 'car' }, { kind: 'bike' }, { kind: 'Truck' },
        { '@odata.type': '#issue' }, { '@odata.type': '#update' }, 'text', null];
      for (const body of bodies) {
        for (const path of ['/pets', '/vehicles', '/announcements', '/issues']) {
          for (const outcome of [sent(path, body), answered(path, path === '/pets' ? 201 : 200, body)]) {
            const recursion = outcome.errors.filter((error) => error.includes('refers to itself'));
            assert.deepEqual(recursion, [], `${path} ${JSON.stringify(body)}`);
          }
        }
      }
    });
  });
}
