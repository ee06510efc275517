#!/usr/bin/env bash
# The whole test suite, every language: the server and Node.js client (node --test), then the
# Python, Go and Java clients, each against a server started from this build. Each client's
# test.sh installs what it needs from its own package registry. Stops at the first failing suite.
set -euo pipefail
cd "$(dirname "$0")/.."

suite() {
  local name=$1
  shift
  echo
  echo "==== ${name}"
  local started=$SECONDS
  "$@"
  echo "==== ${name}: passed in $((SECONDS - started)) s"
}

suite "server and Node.js client" npm run test:node
suite "Python client" bash clients/python/test.sh
suite "Go client" bash clients/go/test.sh
suite "Java client" bash clients/java/test.sh
