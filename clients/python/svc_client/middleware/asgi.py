"""Producer middleware for ASGI applications (Starlette, FastAPI, any ASGI 3 app).

A pure ASGI middleware: it passes the messages through as they come (no buffering of the app's
response), keeping a bounded copy of the bodies beside them. After the last response message went
out, the exchange is queued for the background worker. In strict mode the request body is read
ahead (bounded), checked, and replayed to the application.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from typing import Any

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
from .validation import CapturedRequest, CapturedResponse, ProducerValidation, ProducerValidationStats, Rejection

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class _BodyRecorder:
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

    def text(self) -> bytes:
        return b"".join(self.chunks)


class ContractValidationMiddleware:
    """``app = ContractValidationMiddleware(app, schema_id=..., validator=..., mode="warn")``, or
    ``app.add_middleware(ContractValidationMiddleware, schema_id=..., validator=...)``."""

    def __init__(
        self,
        app: ASGIApp,
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
        return self.validation.flush(timeout)

    def close(self) -> None:
        self.validation.close()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        query = scope.get("query_string", b"")
        path = scope["path"] + ("?" + query.decode("latin-1") if query else "")
        if not self.validation.selects(path):
            await self.app(scope, receive, send)
            return
        validation = self.validation
        limit = validation.max_body_bytes
        method: str = scope["method"]
        request_headers = [(name.decode("latin-1"), value.decode("latin-1")) for name, value in scope.get("headers", ())]
        request_body = _BodyRecorder(limit)
        has_body = _has_body(request_headers)

        if validation.mode == "strict":
            buffered, complete = await _read_ahead(receive, request_body, limit)
            checked = CapturedRequest(method, path, request_headers, request_body.text(), complete)
            # The check blocks on the validator: keep it off the event loop.
            rejection = await asyncio.to_thread(validation.check_request, checked)
            if rejection is not None:
                await _send_rejection(send, rejection)
                return
            receive = _replay(buffered, receive)
        else:
            original_receive = receive

            async def receive_and_record() -> Message:
                message = await original_receive()
                if message["type"] == "http.request":
                    request_body.add(message.get("body", b""))
                return message

            receive = receive_and_record

        status = 0
        response_headers: list[tuple[str, str]] = []
        response_body = _BodyRecorder(limit)
        encoded = False

        async def send_and_record(message: Message) -> None:
            nonlocal status, response_headers, encoded
            kind = message["type"]
            if kind == "http.response.start":
                status = message["status"]
                response_headers = [(n.decode("latin-1"), v.decode("latin-1")) for n, v in message.get("headers", ())]
                # A compression middleware inside this one hands us compressed bytes: nothing to check.
                encoded = any(n.lower() == "content-encoding" and v.lower() != "identity" for n, v in response_headers)
            elif kind == "http.response.body":
                response_body.add(message.get("body", b""))
            await send(message)
            if kind == "http.response.body" and not message.get("more_body", False):
                request_complete = not request_body.overflow and (request_body.seen or not has_body)
                validation.after_response(
                    CapturedRequest(method, path, request_headers, request_body.text(), request_complete),
                    CapturedResponse(status, response_headers, response_body.text(), not response_body.overflow and not encoded),
                )

        await self.app(scope, receive, send_and_record)


def _has_body(headers: list[tuple[str, str]]) -> bool:
    for name, value in headers:
        lowered = name.lower()
        if lowered == "content-length":
            return value.strip() not in ("", "0")
        if lowered == "transfer-encoding":
            return True
    return False


async def _read_ahead(receive: Receive, recorder: _BodyRecorder, limit: int) -> tuple[list[Message], bool]:
    """Strict mode: the request messages up to the end of the body, or up to ``limit`` bytes."""
    buffered: list[Message] = []
    while True:
        message = await receive()
        buffered.append(message)
        if message["type"] != "http.request":
            return buffered, False  # the client went away: the application sees it too
        recorder.add(message.get("body", b""))
        if recorder.overflow:
            return buffered, False
        if not message.get("more_body", False):
            return buffered, True


def _replay(buffered: list[Message], receive: Receive) -> Receive:
    pending = list(buffered)

    async def replay() -> Message:
        if pending:
            return pending.pop(0)
        return await receive()

    return replay


async def _send_rejection(send: Send, rejection: Rejection) -> None:
    body = json.dumps(rejection.body).encode("utf-8")
    await send(
        {
            "type": "http.response.start",
            "status": rejection.status_code,
            "headers": [(b"content-type", b"application/json; charset=utf-8"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
