import path from 'node:path';

/** Repository root (tests run compiled from dist/test/...). */
export const REPO_ROOT = path.resolve(__dirname, '../../..');

export function fixturePath(...parts: string[]): string {
  return path.join(REPO_ROOT, 'test', 'fixtures', ...parts);
}
