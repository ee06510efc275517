"""A schema URL's credentials and query values never reach an error message."""

from __future__ import annotations

from typing import Any

import pytest

from svc_client import ContractValidator, ContractValidatorError

from .http_servers import serve_wsgi
from .svc_server import closed_port

SECRETS = ("hunter2", "abc123")


def _not_found(environ: dict[str, Any], start_response: Any) -> list[bytes]:
    start_response("404 Not Found", [("content-type", "text/plain")])
    return [b"no such schema"]


def _fetch_error(svc_address: str, schema_id: str, url: str) -> str:
    with ContractValidator(svc_address) as client, pytest.raises(ContractValidatorError) as raised:
        client.register_schema(schema_id, url)
    assert raised.value.code == "INVALID_ARGUMENT"
    return str(raised.value)


@pytest.mark.parametrize("auth", ["ci:hunter2@", ""])
def test_an_unreachable_schema_url_is_named_without_its_secrets(svc_address: str, schema_id: str, auth: str) -> None:
    message = _fetch_error(svc_address, schema_id, f"http://{auth}127.0.0.1:{closed_port()}/openapi.yaml?token=abc123&v=2")
    assert not any(secret in message for secret in SECRETS), message
    assert "/openapi.yaml?token=***&v=***" in message and ("http://***@127.0.0.1:" in message) == bool(auth), message


def test_a_schema_url_answering_404_is_named_without_its_query_values(svc_address: str, schema_id: str) -> None:
    with serve_wsgi(_not_found) as base_url:
        message = _fetch_error(svc_address, schema_id, f"{base_url}/openapi.yaml?token=abc123")
    assert "abc123" not in message and f"{base_url}/openapi.yaml?token=***" in message and "404" in message, message


def test_a_schema_url_urllib_refuses_is_named_without_its_secrets(svc_address: str, schema_id: str) -> None:
    # Without a port, urllib reads "hunter2@127.0.0.1" as the port and quotes it in its own error.
    message = _fetch_error(svc_address, schema_id, "http://ci:hunter2@127.0.0.1/openapi.yaml?token=abc123")
    assert not any(secret in message for secret in SECRETS) and "http://***@127.0.0.1/openapi.yaml?token=***" in message, message


def test_an_invalid_schema_url_is_not_quoted(svc_address: str, schema_id: str) -> None:
    message = _fetch_error(svc_address, schema_id, "http://ci:hunter2@127.0.0.1:port/openapi.yaml?token=abc123")
    assert not any(secret in message for secret in SECRETS) and "cannot fetch schema from an http(s) URL that is not valid" in message, message
