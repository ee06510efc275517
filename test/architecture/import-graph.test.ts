/**
 * The layout is the architecture, so it is checked: no import cycles (type-only imports included),
 * and the layers import only downwards. Workers and the main thread never import each other, the
 * shared engine imports neither, and the client package imports no server code.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../helpers/paths';

const SOURCE_ROOTS = ['src', 'clients/node/src'];
/** `import ... from 'x'`, `export ... from 'x'`, `import 'x'`, `import('x')`, `require('x')`. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;

interface SourceFile {
  /** Repository-relative path with forward slashes. */
  file: string;
  /** Repository-relative paths of the project files it imports. */
  imports: string[];
  /** Package specifiers it imports (`@grpc/grpc-js`, `@svc/client/protocol`). */
  packages: string[];
}

function listTypeScript(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true })) {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) found.push(...listTypeScript(relative));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) found.push(relative);
  }
  return found;
}

function resolveRelative(from: string, specifier: string): string {
  const base = path.posix.join(path.posix.dirname(from), specifier);
  for (const candidate of [`${base}.ts`, `${base}/index.ts`]) {
    if (fs.existsSync(path.join(REPO_ROOT, candidate))) return candidate;
  }
  return base; // a .js worker file or something outside the scanned trees
}

function readSources(): SourceFile[] {
  return SOURCE_ROOTS.flatMap(listTypeScript).map((file) => {
    const text = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, '');
    const imports: string[] = [];
    const packages: string[] = [];
    for (const [, specifier] of text.matchAll(SPECIFIER)) {
      if (specifier!.startsWith('.')) imports.push(resolveRelative(file, specifier!));
      else packages.push(specifier!);
    }
    return { file, imports, packages };
  });
}

const sources = readSources();

/** Strongly connected components of more than one file (or a file importing itself): Tarjan's algorithm. */
function findCycles(files: SourceFile[]): string[][] {
  const edges = new Map(files.map((source) => [source.file, source.imports.filter((target) => target.endsWith('.ts'))]));
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (edges.get(node) ?? []).includes(node)) cycles.push(component.sort());
    }
  };
  for (const file of edges.keys()) if (!index.has(file)) visit(file);
  return cycles;
}

test('the scan sees the whole tree', () => {
  assert.ok(sources.length > 150, `only ${sources.length} files were read`);
  assert.ok(sources.some((source) => source.file === 'src/main/server.ts'));
  assert.ok(sources.some((source) => source.file === 'clients/node/src/contract-validator.ts'));
});

test('no import cycles, type-only imports included', () => {
  assert.deepEqual(findCycles(sources), []);
});

test('the cycle check finds a cycle when there is one', () => {
  const cyclic: SourceFile[] = [
    { file: 'a.ts', imports: ['b.ts'], packages: [] },
    { file: 'b.ts', imports: ['c.ts'], packages: [] },
    { file: 'c.ts', imports: ['a.ts'], packages: [] },
  ];
  assert.deepEqual(findCycles(cyclic), [['a.ts', 'b.ts', 'c.ts']]);
});

/** Each rule: files under `layer` may not import files under any of `forbidden`. */
const LAYER_RULES: ReadonlyArray<{ layer: string; forbidden: readonly string[] }> = [
  { layer: 'src/workers/', forbidden: ['src/main/', 'src/cli/'] },
  { layer: 'src/main/', forbidden: ['src/workers/', 'src/cli/'] },
  { layer: 'src/shared/', forbidden: ['src/main/', 'src/workers/', 'src/cli/'] },
];

test('layers: workers and main never import each other; shared imports neither; main never imports the CLI', () => {
  const violations: string[] = [];
  for (const { file, imports } of sources) {
    for (const rule of LAYER_RULES) {
      if (!file.startsWith(rule.layer)) continue;
      for (const target of imports) {
        if (rule.forbidden.some((prefix) => target.startsWith(prefix))) violations.push(`${file} imports ${target}`);
      }
    }
  }
  assert.deepEqual(violations, []);
});

test('the client package imports only itself, Node.js built-ins and its declared dependencies', () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'clients/node/package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const allowed = new Set(Object.keys(manifest.dependencies));
  const violations: string[] = [];
  for (const { file, imports, packages } of sources) {
    if (!file.startsWith('clients/node/src/')) continue;
    for (const target of imports) if (!target.startsWith('clients/node/src/')) violations.push(`${file} imports ${target}`);
    for (const specifier of packages) {
      const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
      if (!specifier.startsWith('node:') && !allowed.has(name)) violations.push(`${file} imports the package ${specifier}`);
    }
  }
  assert.deepEqual(violations, []);
});

test('worker threads load no gRPC code: shared and workers import only types from the client package', () => {
  const grpcModules = /^(@grpc\/grpc-js|@grpc\/proto-loader|@svc\/client(\/protocol|\/internal)?)$/;
  const valueImport = /^\s*(?:import|export)\s+(?!type\b)[^;]*?\bfrom\s*['"]([^'"]+)['"]/gm;
  const violations: string[] = [];
  for (const { file } of sources) {
    if (!file.startsWith('src/shared/') && !file.startsWith('src/workers/')) continue;
    const text = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
    for (const [, specifier] of text.matchAll(valueImport)) {
      if (grpcModules.test(specifier!)) violations.push(`${file} imports ${specifier}`);
    }
  }
  assert.deepEqual(violations, []);
});
