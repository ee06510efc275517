"""Interactions as users hand them in → the service's ``RequestData`` / ``ResponseData`` messages.

Bodies are encoded exactly once: ``str`` and ``bytes`` are taken as already encoded, anything else is
JSON-encoded. Header names are lower-cased and multi-valued headers joined with ", " (RFC 9110).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from ._generated import svc_pb2 as pb
from .errors import invalid_use
from .types import (
    Headers,
    HttpRequest,
    HttpResponse,
    Interaction,
    InteractionLike,
    RequestLike,
    ResponseLike,
)

JSON_CONTENT_TYPE = "application/json"


def normalize_headers(headers: Headers | Iterable[tuple[str, str]] | None) -> dict[str, str]:
    """Lower-cased names, string values; repeated names (from a list of pairs) joined with ", "."""
    result: dict[str, str] = {}
    if headers is None:
        return result
    pairs = headers.items() if isinstance(headers, Mapping) else headers
    for name, value in pairs:
        key = name.lower()
        if isinstance(value, (list, tuple)):
            text = ", ".join(str(item) for item in value)
        else:
            text = str(value)
        result[key] = f"{result[key]}, {text}" if key in result else text
    return result


def encode_body(body: Any) -> tuple[str, bool]:
    """The body as text, and whether this function JSON-encoded it (then a JSON content type is implied)."""
    if body is None:
        return "", False
    if isinstance(body, str):
        return body, False
    if isinstance(body, (bytes, bytearray, memoryview)):
        return bytes(body).decode("utf-8", errors="replace"), False
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False), True


def parse_body_text(text: str) -> Any:
    """JSON text → value; text that is not JSON stays text; empty text is ``None``."""
    if text == "":
        return None
    try:
        return json.loads(text)
    except ValueError:
        return text


def as_request(value: RequestLike) -> HttpRequest:
    if isinstance(value, HttpRequest):
        return value
    if not isinstance(value, Mapping):
        raise invalid_use("request must be an HttpRequest or a mapping with method and path")
    return HttpRequest(
        method=value.get("method", ""), path=value.get("path", ""), headers=value.get("headers") or {}, body=value.get("body")
    )


def as_response(value: ResponseLike) -> HttpResponse:
    if isinstance(value, HttpResponse):
        return value
    if not isinstance(value, Mapping):
        raise invalid_use("response must be an HttpResponse or a mapping with status_code")
    return HttpResponse(status_code=value.get("status_code"), headers=value.get("headers") or {}, body=value.get("body"))  # type: ignore[arg-type]


def as_interaction(value: InteractionLike) -> Interaction:
    if isinstance(value, Interaction):
        return value
    if not isinstance(value, Mapping) or "request" not in value or "response" not in value:
        raise invalid_use("an interaction must be an Interaction or a mapping with request and response")
    return Interaction(request=as_request(value["request"]), response=as_response(value["response"]))


def to_request_data(value: RequestLike) -> pb.RequestData:
    request = as_request(value)
    if not isinstance(request.method, str) or request.method == "":
        raise invalid_use("request.method must be a non-empty string")
    if not isinstance(request.path, str) or request.path == "":
        raise invalid_use("request.path must be a non-empty string")
    headers, body = _encode_message(request.headers, request.body)
    return pb.RequestData(method=request.method.upper(), path=request.path, headers=headers, body=body)


def to_response_data(value: ResponseLike) -> pb.ResponseData:
    response = as_response(value)
    if not isinstance(response.status_code, int) or isinstance(response.status_code, bool):
        raise invalid_use("response.status_code must be an integer")
    headers, body = _encode_message(response.headers, response.body)
    return pb.ResponseData(status_code=response.status_code, headers=headers, body=body)


def _encode_message(raw_headers: Headers, raw_body: Any) -> tuple[dict[str, str], str]:
    headers = normalize_headers(raw_headers)
    text, json_encoded = encode_body(raw_body)
    if json_encoded and "content-type" not in headers:
        headers["content-type"] = JSON_CONTENT_TYPE
    return headers, text
