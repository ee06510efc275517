"""Reads an OpenAPI document (JSON or YAML text) from a file path, a ``file:`` URL or an http(s) URL.

The text is sent as it is: the server parses it, and the registered hash is the hash of these bytes.
"""

from __future__ import annotations

import http.client
import os
import re
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import SplitResult, urlparse, urlsplit
from urllib.request import url2pathname

from .errors import invalid_use
from .options import MAX_SCHEMA_BYTES, StrPath

_HTTP_URL = re.compile(r"^https?://", re.IGNORECASE)
_READ_CHUNK_BYTES = 64 * 1024


def read_schema_source(source: StrPath, fetch_timeout_s: float) -> str:
    text = os.fspath(source)
    if not isinstance(text, str) or text == "":
        raise invalid_use("schema_path must be a file path or an http(s) URL")
    if _HTTP_URL.match(text):
        return _fetch(text, fetch_timeout_s)
    path = Path(url2pathname(urlparse(text).path)) if text.lower().startswith("file:") else Path(text)
    try:
        size = path.stat().st_size
    except OSError as error:
        raise invalid_use(f'cannot read schema file "{path}": {error.strerror or error}') from error
    _check_size(text, size)
    return path.read_text(encoding="utf-8")


def shown_schema_location(source: str) -> str:
    """A schema's location as messages name it: a URL without its user name, password and query values,
    which often carry tokens (``https://ci:token@…``, ``?token=…``) that logs and CI output would keep.
    Paths are named as given."""
    if not _HTTP_URL.match(source):
        return source
    try:
        parts = _http_url(source)
    except ValueError:
        return "an http(s) URL that is not valid"
    netloc = parts.netloc
    if parts.username is not None or parts.password is not None:
        netloc = "***@" + netloc.rpartition("@")[2]
    query = "&".join(f"{pair.partition('=')[0]}=***" for pair in parts.query.split("&") if pair)
    return parts._replace(netloc=netloc, query=query).geturl()


def _http_url(source: str) -> SplitResult:
    parts = urlsplit(source)
    parts.port  # raises ValueError for a port that is not a number in range
    return parts


def _fetch(url: str, timeout_s: float) -> str:
    shown = shown_schema_location(url)
    try:
        _http_url(url)
    except ValueError:
        # Not chained: its text quotes the URL.
        raise invalid_use(f"cannot fetch schema from {shown}") from None
    request = urllib.request.Request(url, headers={"accept": "application/json, application/yaml, text/yaml, */*"})
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:
            declared = response.headers.get("content-length")
            if declared is not None and declared.isdigit():
                _check_size(shown, int(declared))
            chunks: list[bytes] = []
            received = 0
            # Read chunk by chunk so that an endless or oversized download stops at the limit.
            while chunk := response.read(_READ_CHUNK_BYTES):
                received += len(chunk)
                _check_size(shown, received)
                chunks.append(chunk)
    except (http.client.InvalidURL, ValueError):
        # Its text quotes parts of the URL: urllib takes "user:password@host" for the host name.
        raise invalid_use(f"cannot fetch schema from {shown}: urllib cannot fetch this URL") from None
    except (urllib.error.URLError, http.client.HTTPException, OSError) as error:
        # Their texts (socket errors, "HTTP Error 404: Not Found") do not quote the URL.
        raise invalid_use(f"cannot fetch schema from {shown}: {error}") from error
    return b"".join(chunks).decode("utf-8")


def _check_size(source: str, size: int) -> None:
    # The server refuses larger content anyway; failing here saves the upload.
    if size > MAX_SCHEMA_BYTES:
        raise invalid_use(f"schema {source} is {size} bytes, over the {MAX_SCHEMA_BYTES} bytes limit (MAX_SCHEMA_BYTES)")
