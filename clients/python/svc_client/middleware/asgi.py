"""Producer middleware for ASGI applications (Starlette, FastAPI, any ASGI 3 app).

A pure ASGI middleware: it passes the messages through as they come (no buffering of the app's
response), keeping a bounded copy of the bodies beside them. After the last response message went
out, the exchange is queued for the background worker. In strict mode the request body is read
ahead (bounded), checked, and replayed to the application.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from .producer_middleware import BoundedBody, ProducerMiddleware, is_encoded, recorded_request
from .request_path import asgi_request_path
from .validation import REJECTION_CONTENT_TYPE, CapturedRequest, CapturedResponse, Rejection

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class ContractValidationMiddleware(ProducerMiddleware[ASGIApp]):
    """``app = ContractValidationMiddleware(app, schema_id=..., validator=..., mode="warn")``, or
    ``app.add_middleware(ContractValidationMiddleware, schema_id=..., validator=...)``."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request_path = asgi_request_path(scope)
        if not self.validation.selects(request_path.routed):
            await self.app(scope, receive, send)
            return
        validation = self.validation
        limit = validation.max_body_bytes
        method: str = scope["method"]
        path = request_path.written
        request_headers = [(name.decode("latin-1"), value.decode("latin-1")) for name, value in scope.get("headers", ())]
        request_body = BoundedBody(limit)
        has_body = _has_body(request_headers)

        if validation.mode == "strict":
            buffered, complete = await _read_ahead(receive, request_body, limit)
            checked = CapturedRequest(method, path, request_headers, request_body.content(), complete)
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
        response_body = BoundedBody(limit)
        encoded = False

        async def send_and_record(message: Message) -> None:
            nonlocal status, response_headers, encoded
            kind = message["type"]
            if kind == "http.response.start":
                status = message["status"]
                response_headers = [(n.decode("latin-1"), v.decode("latin-1")) for n, v in message.get("headers", ())]
                encoded = is_encoded(response_headers)
            elif kind == "http.response.body":
                response_body.add(message.get("body", b""))
            await send(message)
            if kind == "http.response.body" and not message.get("more_body", False):
                validation.after_response(
                    recorded_request(method, path, request_headers, request_body, has_body),
                    CapturedResponse(status, response_headers, response_body.content(), not response_body.overflow and not encoded),
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


async def _read_ahead(receive: Receive, recorder: BoundedBody, limit: int) -> tuple[list[Message], bool]:
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
    body = rejection.payload()
    await send(
        {
            "type": "http.response.start",
            "status": rejection.status_code,
            "headers": [(b"content-type", REJECTION_CONTENT_TYPE.encode()), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
