#!/usr/bin/env node
// The package ships the service's proto file; the one source is the repository's proto/svc.proto.
import { copyFileSync, mkdirSync } from 'node:fs';

const source = new URL('../../../proto/svc.proto', import.meta.url);
const target = new URL('../proto/', import.meta.url);
mkdirSync(target, { recursive: true });
copyFileSync(source, new URL('svc.proto', target));
