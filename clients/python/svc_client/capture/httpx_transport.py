"""Capture for ``httpx``: transports that wrap the real one.

    capture = HttpxCapture(validator=validator, auto_validate=True)
    client = httpx.Client(transport=capture.transport())          # or AsyncClient(transport=capture.async_transport())
    client.get("http://127.0.0.1:8000/users/42")
    capture.interactions()

The response body is read once inside the transport and handed on as a fresh in-memory stream, so
the caller reads (and decodes) it as usual. Bodies that are not text-like (or are event streams)
are passed through unread.
"""

from __future__ import annotations

from typing import Any

import httpx

from ..aio import AsyncContractValidator
from ..client import ContractValidator
from ..types import HttpRequest, HttpResponse, Interaction
from ..wire import normalize_headers
from .recorder import CaptureBase, InteractionRecorder, is_capturable_content_type, recorded_body


def _request_of(request: httpx.Request, limit: int) -> HttpRequest:
    try:
        content: bytes | None = request.content
    except httpx.RequestNotRead:  # a streamed upload: sent without being recorded
        content = None
    return HttpRequest(
        method=request.method.upper(),
        path=request.url.raw_path.decode("ascii"),
        headers=normalize_headers(request.headers.multi_items()),
        body=recorded_body(content, request.headers.get("content-type"), limit),
    )


def _captured(
    request: httpx.Request, response: httpx.Response, raw: bytes | None, limit: int
) -> tuple[httpx.Response, Interaction]:
    """The response to hand on and the interaction to record; ``raw`` is the body read (None: passed through unread)."""
    body: Any = None
    if raw is not None:
        # A throw-away response decodes the raw bytes (gzip, br, ...) as the caller's will.
        decoded = httpx.Response(response.status_code, headers=response.headers, stream=httpx.ByteStream(raw)).read()
        body = recorded_body(decoded, response.headers.get("content-type"), limit)
        response = httpx.Response(
            response.status_code,
            headers=response.headers,
            stream=httpx.ByteStream(raw),
            extensions=response.extensions,
            request=request,
        )
    interaction = Interaction(
        request=_request_of(request, limit),
        response=HttpResponse(
            status_code=response.status_code, headers=normalize_headers(response.headers.multi_items()), body=body
        ),
    )
    return response, interaction


class CapturingTransport(httpx.BaseTransport):
    def __init__(self, recorder: InteractionRecorder, inner: httpx.BaseTransport | None = None) -> None:
        self.recorder = recorder
        self.inner = inner or httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        raw = None
        if is_capturable_content_type(response.headers.get("content-type")):
            try:
                raw = b"".join(response.stream)  # type: ignore[arg-type]
            finally:
                response.close()
        response, interaction = _captured(request, response, raw, self.recorder.max_body_bytes)
        self.recorder.record(interaction)
        return response

    def close(self) -> None:
        self.inner.close()


class AsyncCapturingTransport(httpx.AsyncBaseTransport):
    def __init__(self, recorder: InteractionRecorder, inner: httpx.AsyncBaseTransport | None = None) -> None:
        self.recorder = recorder
        self.inner = inner or httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self.inner.handle_async_request(request)
        raw = None
        if is_capturable_content_type(response.headers.get("content-type")):
            try:
                raw = b"".join([chunk async for chunk in response.stream])  # type: ignore[union-attr]
            finally:
                await response.aclose()
        response, interaction = _captured(request, response, raw, self.recorder.max_body_bytes)
        await self.recorder.record_async(interaction)
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()


class HttpxCapture(CaptureBase[ContractValidator | AsyncContractValidator]):
    """``validator`` may be a ContractValidator or, for ``async_transport``, an AsyncContractValidator."""

    def transport(self, inner: httpx.BaseTransport | None = None) -> CapturingTransport:
        """For ``httpx.Client(transport=...)``; ``inner`` is the real transport (default HTTPTransport)."""
        return CapturingTransport(self.recorder, inner)

    def async_transport(self, inner: httpx.AsyncBaseTransport | None = None) -> AsyncCapturingTransport:
        """For ``httpx.AsyncClient(transport=...)``; auto_validate awaits an AsyncContractValidator."""
        return AsyncCapturingTransport(self.recorder, inner)
