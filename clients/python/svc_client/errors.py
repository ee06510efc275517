"""The one exception type of the client library.

``code`` is the gRPC status name for anything the transport or the server answered with a status
(``UNAVAILABLE``, ``UNAUTHENTICATED``, ``DEADLINE_EXCEEDED``, ...), or ``REJECTED`` when the server
answered normally but refused the operation (``success: false``, for example ``Invalid schema: ...``).
Validation failures are never raised: they come back as results with ``valid=False``.
"""

from __future__ import annotations

from typing import Final

import grpc

REJECTED: Final = "REJECTED"


class ContractValidatorError(Exception):
    """A call that could not be made, failed on the way, or was refused by the server."""

    code: str
    """A gRPC status name (``UNAVAILABLE``, ...) or ``REJECTED``."""
    details: str
    """The server's message without the code prefix."""

    def __init__(self, code: str, details: str) -> None:
        super().__init__(f"{code}: {details}")
        self.code = code
        self.details = details


def from_rpc_error(error: grpc.RpcError) -> ContractValidatorError:
    """What grpcio raises (sync ``RpcError`` or ``aio.AioRpcError``) → the client's error."""
    status = getattr(error, "code", None)
    code = status() if callable(status) else None
    name = code.name if isinstance(code, grpc.StatusCode) else "UNKNOWN"
    detail_getter = getattr(error, "details", None)
    details = detail_getter() if callable(detail_getter) else None
    return ContractValidatorError(name, str(details) if details else str(error))


def invalid_use(details: str) -> ContractValidatorError:
    """Misuse of the library by the calling code (a missing argument, an unusable value)."""
    return ContractValidatorError("INVALID_ARGUMENT", details)


def rejected(operation: str, message: str) -> ContractValidatorError:
    return ContractValidatorError(REJECTED, message or f"{operation} was refused without a message")


def closed_client() -> ContractValidatorError:
    return ContractValidatorError("FAILED_PRECONDITION", "the client is closed")
