#!/usr/bin/env bash
# Installs the Node.js dependencies. The native modules (better-sqlite3, re2) build from source with
# node-gyp, which otherwise downloads Node's headers: point it at the headers of the Node.js that runs
# here (its prefix's include/node) when nothing else says where they are.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${npm_config_nodedir:-}" ]; then
  configured=$(npm config get nodedir 2>/dev/null || true)
  if [ -z "$configured" ] || [ "$configured" = "undefined" ] || [ "$configured" = "null" ]; then
    prefix=$(node -p 'require("node:path").resolve(process.execPath, "..", "..")')
    if [ -f "$prefix/include/node/node.h" ]; then
      export npm_config_nodedir="$prefix"
    fi
  fi
fi

npm install --no-audit --no-fund
