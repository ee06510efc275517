"""Regenerates ``svc_client/_generated`` from ``proto/svc.proto`` with grpcio-tools.

    python scripts/generate_proto.py           # rewrite the generated files
    python scripts/generate_proto.py --check   # exit 1 when regenerating would change them

The output depends on the grpcio-tools version, which the ``dev`` extra pins; regenerate with that one.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

from grpc_tools import protoc

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
REPOSITORY_ROOT = PACKAGE_ROOT.parent.parent
PROTO_DIR = REPOSITORY_ROOT / "proto"
PROTO_FILE = PROTO_DIR / "svc.proto"
GENERATED_DIR = PACKAGE_ROOT / "svc_client" / "_generated"

HEADER = (
    "# Generated from proto/svc.proto by clients/python/scripts/generate_proto.py. DO NOT EDIT.\n"
    "# Regenerate with `python scripts/generate_proto.py`; test.sh fails when this file is stale.\n"
)

INIT_TEXT = HEADER + '"""Protobuf messages and gRPC stubs of the svc service (generated)."""\n'


def generate() -> dict[str, str]:
    """The generated files, by name, as they belong in ``svc_client/_generated``."""
    with tempfile.TemporaryDirectory() as out:
        exit_code = protoc.main(
            [
                "grpc_tools.protoc",
                f"-I{PROTO_DIR}",
                f"--python_out={out}",
                f"--pyi_out={out}",
                f"--grpc_python_out={out}",
                str(PROTO_FILE),
            ]
        )
        if exit_code != 0:
            raise SystemExit(f"protoc failed with exit code {exit_code}")
        files = {path.name: path.read_text(encoding="utf-8") for path in sorted(Path(out).iterdir())}
    # protoc writes top-level imports; inside a package they must be relative.
    files["svc_pb2_grpc.py"] = re.sub(
        r"^import svc_pb2 as svc__pb2$", "from . import svc_pb2 as svc__pb2", files["svc_pb2_grpc.py"], flags=re.M
    )
    generated = {name: HEADER + text for name, text in files.items()}
    generated["__init__.py"] = INIT_TEXT
    return generated


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail when the committed files differ")
    arguments = parser.parse_args()
    expected = generate()
    present = {path.name for path in GENERATED_DIR.glob("*") if path.is_file()}
    if arguments.check:
        stale = sorted(
            name
            for name in expected.keys() | present
            if not (GENERATED_DIR / name).is_file()
            or name not in expected
            or (GENERATED_DIR / name).read_text(encoding="utf-8") != expected[name]
        )
        if stale:
            print(f"generated code is stale ({', '.join(stale)}); run: python scripts/generate_proto.py", file=sys.stderr)
            return 1
        print("generated code is up to date")
        return 0
    GENERATED_DIR.mkdir(parents=True, exist_ok=True)
    for name in present - expected.keys():
        (GENERATED_DIR / name).unlink()
    for name, text in expected.items():
        (GENERATED_DIR / name).write_text(text, encoding="utf-8")
    print(f"wrote {len(expected)} files to {GENERATED_DIR.relative_to(PACKAGE_ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
