"""pytest plugin (entry point ``pytest11``): fixtures that make an svc validator available to a suite.

- ``svc_address``: the server, from ``--svc-address``, else ``$SVC_ADDRESS``, else ``localhost:9550``.
  Override the fixture in a ``conftest.py`` to point at a server the suite starts itself.
- ``svc_api_key``: from ``--svc-api-key``, else ``$SVC_API_KEY``, else none.
- ``contract_validator``: a ``ContractValidator`` for one test, closed after it.
- ``producer_test_kit``: a factory ``producer_test_kit(schema_id, schema_version=None)``; the kits
  it made are closed after the test.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator

import pytest

from .client import ContractValidator
from .options import DEFAULT_ADDRESS
from .testing import ProducerTestKit

ProducerTestKitFactory = Callable[..., ProducerTestKit]


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("svc", "svc contract validation")
    group.addoption("--svc-address", default=None, help="svc server address (default $SVC_ADDRESS or localhost:9550)")
    group.addoption("--svc-api-key", default=None, help="API key sent to the svc server (default $SVC_API_KEY)")


@pytest.fixture(scope="session")
def svc_address(pytestconfig: pytest.Config) -> str:
    option: str | None = pytestconfig.getoption("svc_address")
    return option or os.environ.get("SVC_ADDRESS") or DEFAULT_ADDRESS


@pytest.fixture(scope="session")
def svc_api_key(pytestconfig: pytest.Config) -> str | None:
    option: str | None = pytestconfig.getoption("svc_api_key")
    return option or os.environ.get("SVC_API_KEY") or None


@pytest.fixture
def contract_validator(svc_address: str, svc_api_key: str | None) -> Iterator[ContractValidator]:
    with ContractValidator(svc_address, api_key=svc_api_key) as validator:
        yield validator


@pytest.fixture
def producer_test_kit(svc_address: str, svc_api_key: str | None) -> Iterator[ProducerTestKitFactory]:
    kits: list[ProducerTestKit] = []

    def make(schema_id: str, schema_version: str | None = None) -> ProducerTestKit:
        kit = ProducerTestKit(schema_id, svc_address, schema_version=schema_version, api_key=svc_api_key)
        kits.append(kit)
        return kit

    yield make
    for kit in kits:
        kit.close()
