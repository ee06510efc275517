"""The gRPC channels of the clients: credentials (plain, TLS, mutual TLS), the API key metadata,
per-call deadlines, and the translation of every failure into a ContractValidatorError."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path
from typing import Any

import grpc
import grpc.aio

from ._generated import svc_pb2 as pb
from ._generated.svc_pb2_grpc import ContractValidatorStub
from .errors import ContractValidatorError, closed_client, from_rpc_error, invalid_use
from .options import API_KEY_METADATA_KEY, MAX_GRPC_MESSAGE_BYTES, ClientSettings, StrPath

Metadata = tuple[tuple[str, str], ...]


def _stub(channel: grpc.Channel | grpc.aio.Channel) -> Any:
    # The generated stub is untyped; each call site states the message types it gets back.
    return ContractValidatorStub(channel)  # type: ignore[no-untyped-call]


def channel_options(settings: ClientSettings) -> list[tuple[str, Any]]:
    options: list[tuple[str, Any]] = [
        ("grpc.max_receive_message_length", MAX_GRPC_MESSAGE_BYTES),
        ("grpc.max_send_message_length", MAX_GRPC_MESSAGE_BYTES),
    ]
    if settings.tls is not None and settings.tls.server_name_override:
        options.append(("grpc.ssl_target_name_override", settings.tls.server_name_override))
        options.append(("grpc.default_authority", settings.tls.server_name_override))
    return options


def channel_credentials(settings: ClientSettings) -> grpc.ChannelCredentials | None:
    """None means a plain-text channel."""
    tls = settings.tls
    if tls is None:
        return None
    return grpc.ssl_channel_credentials(
        root_certificates=_read_pem("tls.root_cert_path", tls.root_cert_path),
        private_key=_read_pem("tls.key_path", tls.key_path),
        certificate_chain=_read_pem("tls.cert_path", tls.cert_path),
    )


def call_metadata(settings: ClientSettings) -> Metadata:
    return ((API_KEY_METADATA_KEY, settings.api_key),) if settings.api_key else ()


def _read_pem(option: str, path: StrPath | None) -> bytes | None:
    if path is None:
        return None
    try:
        return Path(path).read_bytes()
    except OSError as error:
        raise invalid_use(f'cannot read {option} "{path}": {error.strerror or error}') from error


class Transport:
    """A blocking channel; thread-safe, as grpcio's channels are."""

    def __init__(self, settings: ClientSettings) -> None:
        credentials = channel_credentials(settings)
        options = channel_options(settings)
        self._channel = (
            grpc.insecure_channel(settings.address, options=options)
            if credentials is None
            else grpc.secure_channel(settings.address, credentials, options=options)
        )
        self._stub = _stub(self._channel)
        self._metadata = call_metadata(settings)
        self._closed = False

    def unary(self, operation: str, request: Any, timeout: float) -> Any:
        if self._closed:
            raise closed_client()
        method = getattr(self._stub, operation)
        try:
            return method(request, timeout=timeout, metadata=self._metadata)
        except grpc.RpcError as error:
            raise from_rpc_error(error) from None

    def stream(self, requests: Iterator[pb.InteractionRequest], timeout: float | None) -> Iterator[pb.ValidationResult]:
        """The results of one ValidateInteractionStream call; failures raise ContractValidatorError.

        The call is cancelled when the caller stops iterating early.
        """
        if self._closed:
            raise closed_client()
        call = self._stub.ValidateInteractionStream(requests, timeout=timeout, metadata=self._metadata)
        try:
            yield from call
        except grpc.RpcError as error:
            raise from_rpc_error(error) from None
        finally:
            call.cancel()

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Idempotent; calls in flight are cancelled."""
        if self._closed:
            return
        self._closed = True
        self._channel.close()


class AsyncTransport:
    """An asyncio channel, opened on first use so that it belongs to the event loop that uses it."""

    def __init__(self, settings: ClientSettings) -> None:
        self._credentials = channel_credentials(settings)
        self._options = channel_options(settings)
        self._address = settings.address
        self._metadata = call_metadata(settings)
        self._channel: grpc.aio.Channel | None = None
        self._stub: Any = None
        self._closed = False

    def _current_stub(self) -> Any:
        if self._closed:
            raise closed_client()
        if self._channel is None:
            self._channel = (
                grpc.aio.insecure_channel(self._address, options=self._options)
                if self._credentials is None
                else grpc.aio.secure_channel(self._address, self._credentials, options=self._options)
            )
            self._stub = _stub(self._channel)
        return self._stub

    async def unary(self, operation: str, request: Any, timeout: float) -> Any:
        method = getattr(self._current_stub(), operation)
        try:
            return await method(request, timeout=timeout, metadata=self._metadata)
        except grpc.RpcError as error:
            raise from_rpc_error(error) from None

    async def stream(
        self, requests: Sequence[pb.InteractionRequest] | Iterator[pb.InteractionRequest], timeout: float | None
    ) -> AsyncIterator[pb.ValidationResult]:
        call = self._current_stub().ValidateInteractionStream(requests, timeout=timeout, metadata=self._metadata)
        try:
            async for result in call:
                yield result
        except grpc.RpcError as error:
            raise from_rpc_error(error) from None
        finally:
            call.cancel()

    @property
    def closed(self) -> bool:
        return self._closed

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._channel is not None:
            await self._channel.close(grace=None)
        self._channel = None


