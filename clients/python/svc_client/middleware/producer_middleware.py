"""What the ASGI and the WSGI middleware share on the framework side: the constructor (options
checked once, the validation core behind them), bounded copies of the bodies as they pass, the
request as the application read it, and the test for a response body that a compression layer has
already encoded."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import Generic, TypeVar

from ..client import ContractValidator
from .options import (
    DEFAULT_MAX_BODY_BYTES,
    DEFAULT_MAX_QUEUE_SIZE,
    DEFAULT_MODE,
    DEFAULT_REQUEST_CHECK_TIMEOUT_S,
    DEFAULT_SAMPLE_RATE,
    DEFAULT_VALIDATION_TIMEOUT_S,
    ValidationMode,
    ViolationCallback,
    resolve_middleware_settings,
)
from .validation import CapturedRequest, ProducerValidation, ProducerValidationStats

AppT = TypeVar("AppT")


class BoundedBody:
    """A bounded copy of a body as it passes by; over the limit it stops and marks itself incomplete."""

    __slots__ = ("chunks", "size", "limit", "overflow", "seen")

    def __init__(self, limit: int) -> None:
        self.chunks: list[bytes] = []
        self.size = 0
        self.limit = limit
        self.overflow = False
        self.seen = False

    def add(self, chunk: bytes) -> None:
        self.seen = True
        if self.overflow or not chunk:
            return
        self.size += len(chunk)
        if self.size > self.limit:
            self.overflow = True
            self.chunks.clear()
        else:
            self.chunks.append(chunk)

    def content(self) -> bytes:
        return b"".join(self.chunks)


def recorded_request(method: str, path: str, headers: list[tuple[str, str]], body: BoundedBody, has_body: bool) -> CapturedRequest:
    """The request with the body the application read. A body it never read (a handler that answered
    without it) is unknown, not empty: that exchange's response is checked alone."""
    return CapturedRequest(method, path, headers, body.content(), not body.overflow, body_unread=has_body and not body.seen)


def is_encoded(headers: Iterable[tuple[str, str]]) -> bool:
    """A compression layer inside the middleware hands over compressed bytes: nothing to check."""
    return any(name.lower() == "content-encoding" and value.lower() != "identity" for name, value in headers)


class ProducerMiddleware(Generic[AppT]):
    """What the ASGI and the WSGI middleware share: the options, checked once, and the validation core."""

    def __init__(
        self,
        app: AppT,
        *,
        schema_id: str,
        validator: ContractValidator,
        mode: ValidationMode = DEFAULT_MODE,
        schema_version: str | None = None,
        include_paths: Sequence[str] | None = None,
        exclude_paths: Sequence[str] | None = None,
        sample_rate: float = DEFAULT_SAMPLE_RATE,
        on_violation: ViolationCallback | None = None,
        logger: logging.Logger | None = None,
        fail_open: bool = True,
        max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
        max_queue_size: int = DEFAULT_MAX_QUEUE_SIZE,
        request_check_timeout: float = DEFAULT_REQUEST_CHECK_TIMEOUT_S,
        validation_timeout: float = DEFAULT_VALIDATION_TIMEOUT_S,
    ) -> None:
        self.app = app
        self.validation = ProducerValidation(
            resolve_middleware_settings(
                schema_id=schema_id,
                validator=validator,
                mode=mode,
                schema_version=schema_version,
                include_paths=include_paths,
                exclude_paths=exclude_paths,
                sample_rate=sample_rate,
                on_violation=on_violation,
                logger=logger,
                fail_open=fail_open,
                max_body_bytes=max_body_bytes,
                max_queue_size=max_queue_size,
                request_check_timeout=request_check_timeout,
                validation_timeout=validation_timeout,
            )
        )

    def stats(self) -> ProducerValidationStats:
        return self.validation.stats()

    def flush(self, timeout: float = 10.0) -> bool:
        """Waits for the validations queued so far (tests, graceful shutdown); False on time-out."""
        return self.validation.flush(timeout)

    def close(self) -> None:
        """Validates what is queued, then stops the background worker; idempotent. The validator stays open."""
        self.validation.close()
