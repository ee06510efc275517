#!/usr/bin/env bash
# Regenerates svcpb/ (protobuf messages and the gRPC client) from the repository's proto/svc.proto.
#
#   scripts/generate.sh          write svcpb/*.pb.go
#   scripts/generate.sh --check  regenerate into a scratch folder and fail when svcpb/ differs
#
# Every tool version is pinned so that the output is byte-for-byte the same on every machine: the
# plugins come from the Go module proxy, protoc from PyPI's grpcio-tools (no root, no binary download
# outside the package registries). The tools are cached under .cache/ (ignored by git).
set -euo pipefail

PROTOC_GEN_GO_VERSION=v1.36.12
PROTOC_GEN_GO_GRPC_VERSION=v1.6.2
GRPCIO_TOOLS_VERSION=1.85.1
GO_PACKAGE=github.com/svc-contracts/svc/clients/go/svcpb

module_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
proto_dir="$(cd "$module_dir/../../proto" && pwd)"
cache_dir="$module_dir/.cache/protoc-tools"
gobin="$cache_dir/bin-$PROTOC_GEN_GO_VERSION-$PROTOC_GEN_GO_GRPC_VERSION"
venv="$cache_dir/grpcio-tools-$GRPCIO_TOOLS_VERSION"

check=false
case "${1:-}" in
  --check) check=true ;;
  "") ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac

if [[ ! -x "$gobin/protoc-gen-go" || ! -x "$gobin/protoc-gen-go-grpc" ]]; then
  mkdir -p "$gobin"
  GOBIN="$gobin" go install "google.golang.org/protobuf/cmd/protoc-gen-go@$PROTOC_GEN_GO_VERSION"
  GOBIN="$gobin" go install "google.golang.org/grpc/cmd/protoc-gen-go-grpc@$PROTOC_GEN_GO_GRPC_VERSION"
fi
if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c 'import grpc_tools' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "grpcio-tools==$GRPCIO_TOOLS_VERSION"
fi

out="$module_dir/svcpb"
if $check; then
  out="$(mktemp -d)"
  trap 'rm -rf "$out"' EXIT
fi

"$venv/bin/python" -m grpc_tools.protoc \
  --proto_path="$proto_dir" \
  --plugin=protoc-gen-go="$gobin/protoc-gen-go" \
  --plugin=protoc-gen-go-grpc="$gobin/protoc-gen-go-grpc" \
  --go_out="$out" --go_opt=paths=source_relative --go_opt="Msvc.proto=$GO_PACKAGE" \
  --go-grpc_out="$out" --go-grpc_opt=paths=source_relative --go-grpc_opt="Msvc.proto=$GO_PACKAGE" \
  svc.proto

if $check; then
  if ! diff -ru "$module_dir/svcpb" "$out" >&2; then
    echo "svcpb/ is stale: run clients/go/scripts/generate.sh and commit the result" >&2
    exit 1
  fi
  echo "svcpb/ matches proto/svc.proto"
fi
