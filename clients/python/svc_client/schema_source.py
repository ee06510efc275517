"""Reads an OpenAPI document (JSON or YAML text) from a file path, a ``file:`` URL or an http(s) URL.

The text is sent as it is: the server parses it, and the registered hash is the hash of these bytes.
"""

from __future__ import annotations

import os
import re
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlparse
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


def _fetch(url: str, timeout_s: float) -> str:
    request = urllib.request.Request(url, headers={"accept": "application/json, application/yaml, text/yaml, */*"})
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:
            declared = response.headers.get("content-length")
            if declared is not None and declared.isdigit():
                _check_size(url, int(declared))
            chunks: list[bytes] = []
            received = 0
            # Read chunk by chunk so that an endless or oversized download stops at the limit.
            while chunk := response.read(_READ_CHUNK_BYTES):
                received += len(chunk)
                _check_size(url, received)
                chunks.append(chunk)
    except (urllib.error.URLError, OSError) as error:
        raise invalid_use(f"cannot fetch schema from {url}: {error}") from error
    return b"".join(chunks).decode("utf-8")


def _check_size(source: str, size: int) -> None:
    # The server refuses larger content anyway; failing here saves the upload.
    if size > MAX_SCHEMA_BYTES:
        raise invalid_use(f"schema {source} is {size} bytes, over the {MAX_SCHEMA_BYTES} bytes limit (MAX_SCHEMA_BYTES)")
