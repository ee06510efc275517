"""The shared conformance suite, run with the sync and the async client (one core, same answers)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from svc_client import AsyncContractValidator, ContractValidator

from .conformance_runner import case_files, load_case, run_steps
from .svc_server import SvcServer, closed_port, start_server


@pytest.fixture(scope="module")
def servers() -> Iterator[dict[tuple[str, str], SvcServer]]:
    """Servers by (client kind, API keys): the sync and async runs of a case each see a fresh
    registry, as the format promises; cases with the same server configuration share one."""
    started: dict[tuple[str, str], SvcServer] = {}
    yield started
    for server in started.values():
        server.stop()


def _address_for(case: dict[str, Any], client_kind: str, servers: dict[tuple[str, str], SvcServer]) -> str:
    client = case.get("client", {})
    if client.get("address") == "down":
        return f"127.0.0.1:{closed_port()}"
    keys = ",".join(case.get("server", {}).get("apiKeys", ()))
    if (client_kind, keys) not in servers:
        servers[(client_kind, keys)] = start_server(["--api-key-auth"], {"SVC_API_KEYS": keys}) if keys else start_server()
    return servers[(client_kind, keys)].address


def _client_options(case: dict[str, Any]) -> dict[str, Any]:
    client = case.get("client", {})
    options: dict[str, Any] = {}
    if "apiKey" in client:
        options["api_key"] = client["apiKey"]
    if "deadline_ms" in client:
        options["timeout"] = client["deadline_ms"] / 1000
    return options


CASES = case_files()


@pytest.mark.skipif(not CASES, reason="no conformance cases in clients/conformance/cases")
@pytest.mark.parametrize("case_file", CASES, ids=[path.stem for path in CASES])
@pytest.mark.parametrize("client_kind", ["sync", "async"])
def test_conformance_case(
    case_file: Path, client_kind: str, servers: dict[tuple[str, str], SvcServer]
) -> None:
    case = load_case(case_file)
    address = _address_for(case, client_kind, servers)
    options = _client_options(case)
    if client_kind == "sync":
        with ContractValidator(address, **options) as client:
            failures = asyncio.run(run_steps(case, client))
    else:

        async def run() -> list[str]:
            async with AsyncContractValidator(address, **options) as client:
                return await run_steps(case, client)

        failures = asyncio.run(run())
    assert failures == [], "\n".join(failures)
