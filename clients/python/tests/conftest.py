"""One svc server for the whole session, started from the repository's build (or ``$SVC_BIN``)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from svc_client import ContractValidator

from .svc_server import SvcServer, start_server

DOCUMENTS = Path(__file__).parent / "documents"
_schema_ids = itertools.count(1)


@pytest.fixture(scope="session")
def svc_server() -> Iterator[SvcServer]:
    server = start_server()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def svc_address(svc_server: SvcServer) -> str:
    """Overrides the plugin's fixture: the plugin's fixtures talk to the session's server."""
    return svc_server.address


@pytest.fixture
def schema_id(request: pytest.FixtureRequest) -> str:
    """A schema id no other test uses."""
    return f"py-{request.node.name[:40]}-{next(_schema_ids)}".replace("[", "-").replace("]", "")


@pytest.fixture
def users_schema(svc_address: str, schema_id: str) -> str:
    """Registers users-v1 under a fresh id; returns the id."""
    with ContractValidator(svc_address) as validator:
        validator.register_schema_with_version(schema_id, DOCUMENTS / "users-v1.yaml", "1.0.0")
    return schema_id
