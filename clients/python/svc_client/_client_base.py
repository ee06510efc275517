"""What ``ContractValidator`` and ``AsyncContractValidator`` share besides the core: construction,
the bound schema, and the closed flag. Each client adds only its transport and its calls."""

from __future__ import annotations

from types import TracebackType
from typing import Generic, Self, TypeVar

from ._core import ClientCore
from ._transport import AsyncTransport, Transport
from .options import ClientSettings, TlsConfig, resolve_settings

TransportT = TypeVar("TransportT", Transport, AsyncTransport)


class ClientBase(Generic[TransportT]):
    def __init__(
        self,
        address: str | None = None,
        *,
        tls: TlsConfig | bool | None = None,
        api_key: str | None = None,
        timeout: float | None = None,
        schema_id: str | None = None,
        schema_version: str | None = None,
    ) -> None:
        """``address`` is ``host:port`` (default ``localhost:9550``; any grpc target works).

        ``timeout`` is each call's deadline in seconds (default 30). ``schema_id`` binds the client to
        an already registered schema; ``register_schema`` binds it too.
        """
        settings = resolve_settings(
            address, tls=tls, api_key=api_key, timeout=timeout, schema_id=schema_id, schema_version=schema_version
        )
        self._core = ClientCore(settings)
        self._transport: TransportT = self._open_transport(settings)

    def _open_transport(self, settings: ClientSettings) -> TransportT:
        raise NotImplementedError

    @property
    def address(self) -> str:
        return self._core.settings.address

    @property
    def schema_id(self) -> str | None:
        """The schema the client is bound to (by ``register_schema`` or the constructor)."""
        return self._core.schema_id

    @property
    def schema_version(self) -> str | None:
        """The bound version; None means the latest."""
        return self._core.schema_version

    @property
    def closed(self) -> bool:
        return self._transport.closed


class ClosesOnExit:
    """``with`` support for the blocking things with an idempotent ``close()``."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()
