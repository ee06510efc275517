"""Pure path logic: the path the middleware validates (as written) and the one its filters match
(as routed), from ASGI scopes and WSGI environs as servers build them, and as they build them less often."""

from __future__ import annotations

from typing import Any

import pytest

from svc_client.middleware.request_path import asgi_request_path, written_path, wsgi_request_path


@pytest.mark.parametrize(
    ("raw", "decoded", "written"),
    [
        (b"/files/a%2Fb", b"/files/a/b", "/files/a%2Fb"),
        (b"/files/50%25", b"/files/50%", "/files/50%25"),
        (b"/files/a%3Fb", b"/files/a?b", "/files/a%3Fb"),
        (b"/files/a%2fb", b"/files/a/b", "/files/a%2fb"),  # the client's own escapes, kept
        (b"/files/a b\xc3\xa4", b"/files/a b\xc3\xa4", "/files/a%20b%C3%A4"),  # bytes it should have encoded
        (b"/files/a%2Fb", b"/api/files/a/b", "/api/files/a%2Fb"),  # a prefix the raw path lacks
        (b"/files/x%2Fy", b"/files/a/b", "/files/a/b"),  # rewritten in between: the decoded path wins
        (b"http://host/files/a%2Fb", b"/files/a/b", "/files/a/b"),  # not a path: the decoded one, encoded
        (None, b"/files/50%/a?b#c d/\xc3\xa4:@,;=", "/files/50%25/a%3Fb%23c%20d/%C3%A4:@,;="),
    ],
)
def test_written_path(raw: bytes | None, decoded: bytes, written: str) -> None:
    assert written_path(raw, decoded, "") == written
    assert written_path(raw, decoded, "v=1&q=%2F") == f"{written}?v=1&q=%2F"


def asgi_scope(**keys: Any) -> dict[str, Any]:
    return {"type": "http", "method": "GET", "query_string": b"", "headers": [], **keys}


@pytest.mark.parametrize(
    ("scope", "expected"),  # expected: (routed, written)
    [
        (asgi_scope(path="/files/a/b", raw_path=b"/files/a%2Fb"), ("/files/a/b", "/files/a%2Fb")),
        (asgi_scope(path="/files/a/b", raw_path=b"/files/a%2Fb?v=1", query_string=b"v=1"), ("/files/a/b", "/files/a%2Fb?v=1")),
        (asgi_scope(path="/files/ä ö", raw_path=None), ("/files/ä ö", "/files/%C3%A4%20%C3%B6")),
        # The root path inside ``path`` (uvicorn, the ASGI spec's reading) and outside it (older servers).
        (asgi_scope(path="/api/files/a/b", root_path="/api", raw_path=b"/api/files/a%2Fb"), ("/api/files/a/b", "/api/files/a%2Fb")),
        (asgi_scope(path="/files/a/b", root_path="/api", raw_path=b"/files/a%2Fb"), ("/api/files/a/b", "/api/files/a%2Fb")),
        (asgi_scope(path="/files/a?b", root_path="/api"), ("/api/files/a?b", "/api/files/a%3Fb")),
    ],
)
def test_asgi_request_path(scope: dict[str, Any], expected: tuple[str, str]) -> None:
    path = asgi_request_path(scope)
    assert (path.routed, path.written) == expected


def latin1(text: str) -> str:
    """A path as PEP 3333 gives it: its UTF-8 bytes as latin-1 characters."""
    return text.encode("utf-8").decode("latin-1")


@pytest.mark.parametrize(
    ("environ", "expected"),  # expected: (routed, written)
    [
        ({"PATH_INFO": "/files/a/b", "REQUEST_URI": "/files/a%2Fb"}, ("/files/a/b", "/files/a%2Fb")),
        ({"PATH_INFO": "/files/a/b", "RAW_URI": "/files/a%2Fb?v=1", "QUERY_STRING": "v=1"}, ("/files/a/b", "/files/a%2Fb?v=1")),
        ({"SCRIPT_NAME": "/api", "PATH_INFO": "/files/a/b", "REQUEST_URI": "/api/files/a%2Fb"}, ("/api/files/a/b", "/api/files/a%2Fb")),
        # SCRIPT_NAME set from a proxy's prefix header: the prefix the raw path lacks, encoded again.
        ({"SCRIPT_NAME": "/api", "PATH_INFO": "/files/a/b", "REQUEST_URI": "/files/a%2Fb"}, ("/api/files/a/b", "/api/files/a%2Fb")),
        ({"PATH_INFO": latin1("/files/ä ö"), "REQUEST_URI": "/files/%C3%A4%20%C3%B6"}, ("/files/ä ö", "/files/%C3%A4%20%C3%B6")),
        # PEP 3333 alone (wsgiref): the decoded path, encoded again.
        ({"PATH_INFO": latin1("/files/50%/ä"), "QUERY_STRING": "v=1"}, ("/files/50%/ä", "/files/50%25/%C3%A4?v=1")),
        ({"SCRIPT_NAME": "/api", "PATH_INFO": ""}, ("/api", "/api")),
        ({}, ("/", "/")),
    ],
)
def test_wsgi_request_path(environ: dict[str, Any], expected: tuple[str, str]) -> None:
    path = wsgi_request_path(environ)
    assert (path.routed, path.written) == expected
