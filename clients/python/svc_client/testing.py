"""ProducerTestKit: for a provider's own test suite, checks the responses its handlers produce
against the registered schema (ValidateProducerResponse: the response only)."""

from __future__ import annotations

from ._client_base import ClosesOnExit
from .client import ContractValidator
from .errors import invalid_use
from .options import TlsConfig
from .types import Headers, HttpResponse, RequestLike, ValidationResult


class ProducerTestKit(ClosesOnExit):
    def __init__(
        self,
        schema_id: str,
        server_address: str | None = None,
        *,
        schema_version: str | None = None,
        tls: TlsConfig | bool | None = None,
        api_key: str | None = None,
        timeout: float | None = None,
    ) -> None:
        if not isinstance(schema_id, str) or schema_id == "":
            raise invalid_use("ProducerTestKit needs a non-empty schema_id")
        self._validator = ContractValidator(
            server_address, tls=tls, api_key=api_key, timeout=timeout, schema_id=schema_id, schema_version=schema_version
        )
        self._schema_id = schema_id

    @property
    def address(self) -> str:
        return self._validator.address

    @property
    def schema_id(self) -> str:
        return self._schema_id

    def validate_response(
        self,
        method: str,
        path: str,
        status_code: int,
        body: object = None,
        headers: Headers | None = None,
        *,
        request: RequestLike | None = None,
        timeout: float | None = None,
    ) -> ValidationResult:
        """Checks one response; ``path`` is the real path (``/users/42``), from which path parameters are read."""
        response = HttpResponse(status_code=status_code, headers=headers or {}, body=body)
        return self._validator.validate_producer_response(method, path, response, request=request, timeout=timeout)

    def close(self) -> None:
        """Idempotent."""
        self._validator.close()
