"""Client options: named defaults with units, TLS settings, and the one place they are checked."""

from __future__ import annotations

import math
from dataclasses import dataclass
from os import PathLike
from typing import Final

from .errors import invalid_use

DEFAULT_ADDRESS: Final = "localhost:9550"
DEFAULT_TIMEOUT_S: Final = 30.0
"""Deadline of each call unless the call gives its own (the spec's connection time-out default)."""
SCHEMA_FETCH_TIMEOUT_S: Final = 30.0
"""Longest wait for a schema document fetched from an http(s) URL."""
MAX_SCHEMA_BYTES: Final = 32 * 1024 * 1024  # 32 MiB, the server's schema content limit
MAX_GRPC_MESSAGE_BYTES: Final = 48 * 1024 * 1024  # 48 MiB, above the schema limit so that limit answers first
API_KEY_METADATA_KEY: Final = "x-api-key"
"""Metadata entry that carries the API key (the server also accepts ``authorization: Bearer``)."""

StrPath = str | PathLike[str]


@dataclass(frozen=True, slots=True)
class TlsConfig:
    """TLS to the server. An empty config uses the system roots; a client certificate and key make it mutual."""

    root_cert_path: StrPath | None = None
    """CA certificate (PEM) that signed the server's certificate; default: the system roots."""
    cert_path: StrPath | None = None
    """Client certificate (PEM) for mutual TLS; needs ``key_path``."""
    key_path: StrPath | None = None
    """Client private key (PEM) for mutual TLS; needs ``cert_path``."""
    server_name_override: str | None = None
    """Host name to check the server certificate against when it differs from the address."""


@dataclass(frozen=True, slots=True)
class ClientSettings:
    address: str
    tls: TlsConfig | None
    api_key: str | None
    timeout: float
    schema_id: str | None
    schema_version: str | None


def resolve_settings(
    address: str | None,
    *,
    tls: TlsConfig | bool | None,
    api_key: str | None,
    timeout: float | None,
    schema_id: str | None,
    schema_version: str | None,
) -> ClientSettings:
    tls_config = TlsConfig() if tls is True else (tls or None)
    if tls_config is not None and not isinstance(tls_config, TlsConfig):
        raise invalid_use("tls must be a TlsConfig, True or None")
    if tls_config is not None and (tls_config.cert_path is None) != (tls_config.key_path is None):
        raise invalid_use("tls.cert_path and tls.key_path must be given together (mutual TLS)")
    if schema_version is not None and schema_id is None:
        raise invalid_use("schema_version needs schema_id")
    return ClientSettings(
        address=optional_text("address", address) or DEFAULT_ADDRESS,
        tls=tls_config,
        api_key=optional_text("api_key", api_key),
        timeout=positive_seconds("timeout", timeout) or DEFAULT_TIMEOUT_S,
        schema_id=optional_text("schema_id", schema_id),
        schema_version=optional_text("schema_version", schema_version),
    )


def optional_text(name: str, value: object) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or value == "":
        raise invalid_use(f"{name} must be a non-empty string")
    return value


def require_text(name: str, value: object) -> str:
    if not isinstance(value, str) or value == "":
        raise invalid_use(f"{name} must be a non-empty string")
    return value


def positive_seconds(name: str, value: object) -> float | None:
    """A time-out in seconds: a positive finite number, or None."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise invalid_use(f"{name} must be a positive number of seconds (got {value!r})")
    return float(value)


def positive_int(name: str, value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise invalid_use(f"{name} must be a positive integer (got {value!r})")
    return value
