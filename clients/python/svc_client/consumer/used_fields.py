"""The response fields a consumer saw, as dot paths.

Every object key at every level (``user``, ``user.address``, ``user.address.city``), with ``[]``
marking array items (``items[].id``, or ``[].id`` for a body that is itself an array). The walk is
bounded in depth and in the number of fields collected.
"""

from __future__ import annotations

from typing import Any, Final

from ..wire import encode_body, parse_body_text

MAX_DEPTH: Final = 32
"""Deepest nesting walked; deeper fields are left out."""
MAX_FIELDS_PER_ENDPOINT: Final = 2_000
"""Fields collected per endpoint; the rest are left out."""


def collect_used_fields(body: Any, fields: set[str]) -> None:
    """Adds the fields of one response body (a value, or JSON text or bytes) to ``fields``."""
    value = parse_body_text(encode_body(body)[0]) if isinstance(body, (str, bytes, bytearray)) else body
    _walk(value, "", 0, fields)


def _walk(value: Any, prefix: str, depth: int, fields: set[str]) -> None:
    if depth >= MAX_DEPTH or len(fields) >= MAX_FIELDS_PER_ENDPOINT:
        return
    if isinstance(value, list):
        for item in value:
            _walk(item, f"{prefix}[]", depth + 1, fields)
        return
    if not isinstance(value, dict):
        return
    for key, child in value.items():
        if len(fields) >= MAX_FIELDS_PER_ENDPOINT:
            return
        path = str(key) if prefix == "" else f"{prefix}.{key}"
        fields.add(path)
        _walk(child, path, depth + 1, fields)
