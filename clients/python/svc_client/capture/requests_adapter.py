"""Capture for ``requests``: a transport adapter mounted on a Session.

    capture = RequestsCapture(validator=validator, auto_validate=True)
    session = capture.session()            # or capture.mount(existing_session)
    session.get("http://127.0.0.1:8000/users/42")
    capture.interactions()
"""

from __future__ import annotations

from functools import cached_property
from typing import Any
from urllib.parse import urlsplit

import requests
from requests.adapters import HTTPAdapter

from ..client import ContractValidator
from ..types import HttpRequest, HttpResponse, Interaction
from ..wire import normalize_headers
from .recorder import CaptureBase, InteractionRecorder, recorded_body


class CapturingAdapter(HTTPAdapter):
    """An HTTPAdapter that records every exchange it sends (error statuses too)."""

    def __init__(self, recorder: InteractionRecorder, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.recorder = recorder

    def send(self, request: requests.PreparedRequest, stream: bool = False, *args: Any, **kwargs: Any) -> requests.Response:
        response = super().send(request, stream, *args, **kwargs)
        limit = self.recorder.max_body_bytes
        # A streamed response is the caller's to read; reading it here would take it away.
        response_body = None if stream else recorded_body(response.content, response.headers.get("content-type"), limit)
        request_body = request.body if isinstance(request.body, (bytes, str)) else None
        url = urlsplit(request.url or "")
        interaction = Interaction(
            request=HttpRequest(
                method=(request.method or "GET").upper(),
                path=(url.path or "/") + (f"?{url.query}" if url.query else ""),
                headers=normalize_headers(dict(request.headers)),
                body=recorded_body(request_body, request.headers.get("content-type"), limit),
            ),
            response=HttpResponse(
                status_code=response.status_code,
                headers=normalize_headers(dict(response.headers)),
                body=response_body,
            ),
        )
        self.recorder.record(interaction)
        return response


class RequestsCapture(CaptureBase[ContractValidator]):
    @cached_property
    def adapter(self) -> CapturingAdapter:
        return CapturingAdapter(self.recorder)

    def mount(self, session: requests.Session, prefixes: tuple[str, ...] = ("http://", "https://")) -> requests.Session:
        """Routes the session's http(s) traffic through the capturing adapter; returns the session."""
        for prefix in prefixes:
            session.mount(prefix, self.adapter)
        return session

    def session(self) -> requests.Session:
        """A new Session with the adapter mounted."""
        return self.mount(requests.Session())


__all__ = ["CapturingAdapter", "RequestsCapture"]
