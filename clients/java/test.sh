#!/usr/bin/env bash
# The Java client's tests (JUnit 5 via Maven): unit tests, the shared conformance suite, the servlet
# filter in Jetty, TLS and API keys, both capture adapters. They start a real svc server from this
# repository's build (bin/svc.js; SVC_BIN may name another), so the repository must be built first.
# Extra arguments go to Maven (for example -Dmaven.repo.local=... or -Dtest=ConformanceTest).
set -euo pipefail
cd "$(dirname "$0")"
exec mvn -B --no-transfer-progress verify "$@"
