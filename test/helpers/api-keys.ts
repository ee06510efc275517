/** Test servers that authenticate with API keys read from a keys file, and calls that present a key. */
import fs from 'node:fs';
import path from 'node:path';
import { Metadata } from '@grpc/grpc-js';
import type { StartOptions } from '../../src/main/server';
import { makeTempDir, startTestServer, type TestServer } from './server';

export interface KeyedTestServer extends TestServer {
  /** The keys file the server reads (again on SIGHUP); removed with the server. */
  keysFile: string;
}

/** A test server (one worker thread) with `--api-key-auth` and `keys` written to its keys file. */
export async function startServerWithKeysFile(keys: readonly object[], options: StartOptions = {}): Promise<KeyedTestServer> {
  const dir = makeTempDir('svc-keys-');
  const keysFile = path.join(dir, 'keys.json');
  fs.writeFileSync(keysFile, JSON.stringify(keys));
  const server = await startTestServer({ workerThreads: 1, apiKeyAuth: true, ...options, env: { ...options.env, SVC_API_KEYS_FILE: keysFile } });
  return {
    ...server,
    keysFile,
    async close() {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Call metadata presenting `key` as the API key. */
export function apiKeyMetadata(key: string): Metadata {
  const metadata = new Metadata();
  metadata.set('x-api-key', key);
  return metadata;
}
