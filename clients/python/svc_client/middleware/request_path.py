"""The request path twice: as the application routes it, and as the client wrote it.

Servers hand applications the path percent-decoded (ASGI ``path``, WSGI ``SCRIPT_NAME`` +
``PATH_INFO``), which loses what the encoding meant: ``/files/a%2Fb`` (one segment) reads as
``/files/a/b``, ``/files/50%25`` as ``/files/50%``, ``/files/a%3Fb`` as a path and a query. The path
filters match the decoded path (what the application routes on); the validator, like the Go and Java
middleware, gets the path as written, taken from the server's raw path (ASGI ``raw_path``, WSGI
``REQUEST_URI`` or ``RAW_URI``). A raw path is used only where it decodes to the end of the decoded
path: a middleware in between may have rewritten the path, and a prefix the raw path lacks (a root
path or ``SCRIPT_NAME`` set from a proxy header) is encoded again. Without a raw path the decoded
path is encoded again, which keeps everything but an encoded ``/``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import quote_from_bytes, unquote_to_bytes

_SAFE: Final = "/:@!$&'()*+,;="
"""Left as they are when encoding a path again: RFC 3986 ``pchar`` (besides unreserved characters) and ``/``."""


@dataclass(frozen=True, slots=True)
class RequestPath:
    routed: str
    """Percent-decoded, without query string: what ``include_paths`` / ``exclude_paths`` match."""
    written: str
    """Percent-encoded as the client wrote it, with the query string: what is validated."""


def asgi_request_path(scope: Mapping[str, Any]) -> RequestPath:
    path: str = scope["path"]
    root_path: str = scope.get("root_path") or ""
    if not path.startswith(root_path):
        path = root_path + path  # a server (or framework) that keeps the root path out of ``path``
    raw_path: bytes | None = scope.get("raw_path")
    raw = None if raw_path is None else raw_path.partition(b"?")[0]
    query: bytes = scope.get("query_string") or b""
    return RequestPath(path, written_path(raw, path.encode("utf-8", "surrogateescape"), query.decode("latin-1")))


def wsgi_request_path(environ: Mapping[str, Any]) -> RequestPath:
    # PEP 3333: native strings holding the bytes as latin-1 characters.
    decoded = _wsgi_bytes(environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", "")) or b"/"
    target: str | None = environ.get("REQUEST_URI") or environ.get("RAW_URI")  # non-standard, with the query
    raw = None if target is None else _wsgi_bytes(target.partition("?")[0])
    routed = decoded.decode("utf-8", "replace")
    return RequestPath(routed, written_path(raw, decoded, environ.get("QUERY_STRING", "")))


def written_path(raw: bytes | None, decoded: bytes, query: str) -> str:
    """``raw``: the path as received (no query string), or None; ``decoded``: the same path decoded.

    The result decodes to ``decoded``: a raw path is used only where it does (its stray ``%`` not
    followed by two hex digits is kept as the server kept it).
    """
    path = quote_from_bytes(decoded, _SAFE)
    if raw is not None and raw.startswith(b"/"):
        raw_decoded = unquote_to_bytes(raw)
        if decoded.endswith(raw_decoded):
            prefix = decoded[: len(decoded) - len(raw_decoded)]
            # Bytes a client should have encoded (spaces, non-ASCII) are; its own escapes stay.
            path = quote_from_bytes(prefix, _SAFE) + quote_from_bytes(raw, _SAFE + "%")
    return path + (f"?{query}" if query else "")


def _wsgi_bytes(text: str) -> bytes:
    try:
        return text.encode("latin-1")
    except UnicodeEncodeError:  # a server that did not keep to PEP 3333's latin-1 strings
        return text.encode("utf-8", "surrogateescape")
