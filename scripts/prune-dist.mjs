#!/usr/bin/env node
// Removes compiled files whose TypeScript source is gone (renamed or deleted), so that an incremental
// build never leaves stale modules or tests behind: `node --test dist/test/*/*.test.js` would run them.
// Usage: node scripts/prune-dist.mjs <outDir> <rootDir>
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';

const [outDir, rootDir] = process.argv.slice(2);
if (!outDir || !rootDir) {
  console.error('usage: node scripts/prune-dist.mjs <outDir> <rootDir>');
  process.exit(2);
}
const COMPILED = /\.(js|js\.map|d\.ts)$/;

function prune(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      prune(path);
      if (readdirSync(path).length === 0) rmSync(path, { recursive: true });
    } else if (COMPILED.test(entry.name)) {
      const source = join(rootDir, relative(outDir, path)).replace(COMPILED, '.ts');
      if (!existsSync(source)) rmSync(path);
    }
  }
}

// A fresh checkout has nothing built yet.
if (existsSync(outDir)) {
  for (const entry of readdirSync(outDir, { withFileTypes: true })) {
    if (entry.isDirectory()) prune(join(outDir, entry.name));
  }
}
