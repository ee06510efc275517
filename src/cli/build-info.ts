import fs from 'node:fs';
import path from 'node:path';

export interface BuildInfo {
  version: string;
  commit: string;
  built: string;
}

/** dist/build-info.json, written by scripts/write-build-info.mjs at build time. */
export function readBuildInfo(): BuildInfo {
  const file = path.resolve(__dirname, '../../build-info.json');
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as BuildInfo;
  } catch {
    return { version: '0.0.0', commit: 'unknown', built: 'unknown' };
  }
}
