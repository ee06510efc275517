/**
 * find-my-way routers shared between route tables of one thread (shared-routers.ts): tables whose
 * routes are the same take one router, and each still answers with its own operations.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';
import { CompiledContract } from '../../src/shared/validation';
import { buildRouteTable } from '../../src/shared/validation/route-table';
import { sharedRouter, sharedRouterCount } from '../../src/shared/validation/shared-routers';
import type { OpenApiDocument } from '../../src/shared/openapi/document';
import { assertInvalid, assertValid, request } from '../helpers/validation-contracts';

const MAX_PATH_CHARS = 2048;

/** `/things/{id}` (and `extraPaths`) whose id is of `idType`; `title` tells copies apart. */
function documentWith(title: string, idType: string, extraPaths: Record<string, object> = {}): OpenApiDocument {
  const getThing = {
    parameters: [{ name: 'id', in: 'path', required: true, schema: { type: idType } }],
    responses: { '200': { description: 'the thing' } },
  };
  return {
    openapi: '3.0.3',
    info: { title, version: '1.0.0' },
    paths: {
      '/things': { get: { responses: { '200': { description: 'all things' } } } },
      '/things/{id}': { get: getThing },
      '/things/mine': { get: { responses: { '200': { description: 'my things' } } } },
      ...extraPaths,
    },
  } as OpenApiDocument;
}

async function collectGarbage(): Promise<void> {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  await new Promise((resolve) => setImmediate(resolve));
  gc();
}

describe('routers shared between route tables', () => {
  it('tables of the same routes share one router, and each validates by its own operations', () => {
    const before = sharedRouterCount();
    const integers = new CompiledContract(documentWith('shared routes (integer ids)', 'integer'));
    assert.equal(sharedRouterCount() - before, 1);
    // Same routes, another parameter schema: one router, two verdicts.
    const words = new CompiledContract(documentWith('shared routes (word ids)', 'string'));
    assert.equal(sharedRouterCount() - before, 1, 'the second table took the first one\'s router');

    assertValid(words.validateInteraction({ request: request('GET', '/things/abc') }));
    assertInvalid(
      integers.validateInteraction({ request: request('GET', '/things/abc') }),
      'request_invalid',
      'parameter "id" in path: value "abc" is not a valid integer',
    );
    assertValid(integers.validateInteraction({ request: request('GET', '/things/42') }));
    assertValid(words.validateInteraction({ request: request('GET', '/things/mine') }));
  });

  it('each table answers with its own route entries', () => {
    const first = buildRouteTable(documentWith('entries (first)', 'integer'), MAX_PATH_CHARS);
    const second = buildRouteTable(documentWith('entries (second)', 'integer'), MAX_PATH_CHARS);
    for (const path of ['/things', '/things/7', '/things/mine']) {
      const a = first.find('GET', path);
      const b = second.find('GET', path);
      assert.ok(a && b, path);
      assert.equal(a.route.template, b.route.template);
      assert.ok(first.routes.includes(a.route), `${path}: the first table's own entry`);
      assert.ok(second.routes.includes(b.route), `${path}: the second table's own entry`);
      assert.deepEqual({ ...a.params }, { ...b.params });
    }
    assert.deepEqual({ ...first.find('GET', '/things/7')?.params }, { p0: '7' });
  });

  it('tables whose routes differ get routers of their own', () => {
    const before = sharedRouterCount();
    const plain = buildRouteTable(documentWith('own router (plain)', 'integer'), MAX_PATH_CHARS);
    const more = buildRouteTable(documentWith('own router (more)', 'integer', { '/stock': { get: { responses: { '200': { description: 'stock' } } } } }), MAX_PATH_CHARS);
    assert.equal(more.find('GET', '/stock')?.route.template, '/stock');
    assert.equal(plain.find('GET', '/stock'), undefined);
    // The same routes under another parameter length limit are another router too.
    buildRouteTable(documentWith('own router (short)', 'integer'), 16);
    assert.ok(sharedRouterCount() - before >= 2);
    assert.notEqual(sharedRouter([{ method: 'GET', pattern: '/a' }], 16), sharedRouter([{ method: 'GET', pattern: '/a' }], 17));
    assert.equal(sharedRouter([{ method: 'GET', pattern: '/a' }], 16), sharedRouter([{ method: 'GET', pattern: '/a' }], 16));
  });

  it('a route the router refuses is matched in every table that shares the router', () => {
    // find-my-way ignores trailing slashes, so it refuses `/coupon/` beside `/coupon`.
    const coupons = (title: string) => ({
      openapi: '3.0.3',
      info: { title, version: '1.0.0' },
      paths: {
        '/coupon': { get: { responses: { '200': { description: 'without the slash' } } } },
        '/coupon/': { get: { responses: { '200': { description: 'with the slash' } } } },
      },
    }) as OpenApiDocument;
    const routes = [{ method: 'GET', pattern: '/coupon' }, { method: 'GET', pattern: '/coupon/' }];
    assert.deepEqual(sharedRouter(routes, MAX_PATH_CHARS).accepted, [true, false]);
    for (const table of [buildRouteTable(coupons('coupons (first)'), MAX_PATH_CHARS), buildRouteTable(coupons('coupons (second)'), MAX_PATH_CHARS)]) {
      const withSlash = table.find('GET', '/coupon/');
      assert.equal(withSlash?.route.template, '/coupon/');
      assert.ok(table.routes.includes(withSlash.route));
      assert.equal(table.find('GET', '/coupon')?.route.template, '/coupon');
    }
  });

  it('a router no table holds is collected', async () => {
    const routes = [{ method: 'GET', pattern: '/collected/:p0' }];
    let table: ReturnType<typeof buildRouteTable> | undefined = buildRouteTable({
      openapi: '3.0.3',
      info: { title: 'collected', version: '1.0.0' },
      paths: { '/collected/{id}': { get: { responses: { '200': { description: 'ok' } } } } },
    }, MAX_PATH_CHARS);
    const held = new WeakRef(sharedRouter(routes, MAX_PATH_CHARS));
    assert.equal(table.find('GET', '/collected/1')?.route.template, '/collected/{id}');
    await collectGarbage();
    assert.notEqual(held.deref(), undefined, 'the table holds its router');
    table = undefined;
    await collectGarbage();
    assert.equal(held.deref(), undefined, 'nothing holds the router once its table is gone');
  });
});
