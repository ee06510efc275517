#!/usr/bin/env bash
# The Python client's whole check: virtual environment (reused), install with the dev extras,
# generated-code check, mypy --strict, pytest against a server from the repository's build.
set -euo pipefail
cd "$(dirname "$0")"

PYTHON="${PYTHON:-python3.11}"
command -v "$PYTHON" >/dev/null 2>&1 || PYTHON=python3
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[dev]"

echo "== generated code"
.venv/bin/python scripts/generate_proto.py --check
echo "== mypy --strict"
.venv/bin/python -m mypy
echo "== pytest"
.venv/bin/python -m pytest -q -p no:cacheprovider "$@"
