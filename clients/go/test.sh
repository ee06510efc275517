#!/usr/bin/env bash
# The Go client's whole check, as the repository's test command runs it: modules, the generated-code
# check, go vet, and the tests (race detector on) against a real svc server started from this
# repository's build (dist/ must be built; SVC_BIN names another bin/svc.js).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"

echo "go client: downloading modules"
go mod download
go mod verify >/dev/null

echo "go client: checking svcpb/ against proto/svc.proto"
scripts/generate.sh --check

echo "go client: go test -race -vet=all"
# -vet=all runs every go vet check on the packages under test, from the same (race) build, which
# saves a second compilation of the dependencies; svcpb/ is generated and checked above.
go test -race -vet=all -count=1 -timeout 5m ./...
