/** Small OpenAPI documents built in code, for tests that need many variants. */
import fs from 'node:fs';
import { fixturePath } from './paths';

export function readSchemaFixture(name: string): string {
  return fs.readFileSync(fixturePath('schemas', name), 'utf8');
}

/** A minimal valid OpenAPI 3.0 document; `extraPaths` are merged into `paths`. */
export function minimalDocument(version = '1.0.0', extraPaths: Record<string, unknown> = {}, title = 'Minimal'): string {
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title, version },
    paths: {
      '/ping': { get: { operationId: 'ping', responses: { 200: { description: 'pong' } } } },
      ...extraPaths,
    },
  });
}
