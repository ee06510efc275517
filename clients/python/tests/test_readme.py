"""The README's code blocks run as written, in order, against the session's server."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from .conftest import DOCUMENTS

README = Path(__file__).resolve().parents[1] / "README.md"


def python_blocks() -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", README.read_text(encoding="utf-8"), flags=re.S | re.M)


def test_the_readme_has_a_consumer_and_a_producer_example() -> None:
    blocks = python_blocks()
    assert any("validator.validate(" in block for block in blocks)
    assert any("ContractValidationMiddleware" in block for block in blocks)


def test_readme_examples_run(svc_address: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copy(DOCUMENTS / "users-v1.yaml", tmp_path / "openapi.yaml")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SVC_ADDRESS", svc_address)
    namespace: dict[str, object] = {"__name__": "readme"}
    for index, block in enumerate(python_blocks()):
        exec(compile(block, f"README.md block {index}", "exec"), namespace)
