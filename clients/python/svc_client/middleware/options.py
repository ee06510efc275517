"""Options of the producer middleware (ASGI and WSGI): named defaults with units, checked once when
the middleware is created, with errors that name the option."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Literal, get_args

from ..client import ContractValidator
from ..errors import invalid_use
from ..options import positive_int, positive_seconds
from .path_patterns import PathPredicate, compile_path_patterns

ValidationMode = Literal["strict", "warn", "shadow"]
"""strict: a request violation is answered with 400 before the handler runs; a response violation
is logged as an error. warn: violations are logged, traffic continues. shadow: nothing is logged,
violations are only counted (and passed to ``on_violation``). The recommended rollout goes
shadow → warn → strict."""

VALIDATION_MODES: Final = get_args(ValidationMode)

ViolationPhase = Literal["request", "response", "interaction"]
"""What was checked: the request before the handler (strict), the response alone after it (strict,
or a request body the application never read), or both after it (warn, shadow)."""

DEFAULT_MODE: Final[ValidationMode] = "warn"
DEFAULT_SAMPLE_RATE: Final = 1.0
DEFAULT_MAX_BODY_BYTES: Final = 1024 * 1024  # 1 MiB; larger exchanges are skipped
DEFAULT_MAX_QUEUE_SIZE: Final = 1_000
"""Exchanges waiting for the background worker; beyond it, new ones are dropped (counted)."""
DEFAULT_REQUEST_CHECK_TIMEOUT_S: Final = 2.0
"""Strict mode: deadline of the request check before the handler."""
DEFAULT_VALIDATION_TIMEOUT_S: Final = 10.0
"""Deadline of the validations made after the response."""
MAX_VALIDATION_BATCH: Final = 64
"""The worker validates up to this many waiting exchanges over one stream."""
VALIDATOR_ERROR_LOG_INTERVAL_S: Final = 60.0
"""A validator that keeps failing is reported at most once per interval."""

DEFAULT_LOGGER_NAME: Final = "svc_client.middleware"


@dataclass(frozen=True, slots=True)
class ContractViolation:
    mode: ValidationMode
    phase: ViolationPhase
    schema_id: str
    method: str
    path: str
    """The real path with its query string."""
    status_code: int | None
    """The response status; None for a request rejected before the handler."""
    errors: tuple[str, ...]
    validated_against_version: str


ViolationCallback = Callable[[ContractViolation], None]


@dataclass(frozen=True, slots=True)
class MiddlewareSettings:
    schema_id: str
    schema_version: str | None
    validator: ContractValidator
    mode: ValidationMode
    included: PathPredicate | None
    excluded: PathPredicate | None
    sample_rate: float
    on_violation: ViolationCallback | None
    logger: logging.Logger
    fail_open: bool
    max_body_bytes: int
    max_queue_size: int
    request_check_timeout: float
    validation_timeout: float


def resolve_middleware_settings(
    *,
    schema_id: str,
    validator: ContractValidator,
    mode: ValidationMode = DEFAULT_MODE,
    schema_version: str | None = None,
    include_paths: Sequence[str] | None = None,
    exclude_paths: Sequence[str] | None = None,
    sample_rate: float = DEFAULT_SAMPLE_RATE,
    on_violation: ViolationCallback | None = None,
    logger: logging.Logger | None = None,
    fail_open: bool = True,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    max_queue_size: int = DEFAULT_MAX_QUEUE_SIZE,
    request_check_timeout: float = DEFAULT_REQUEST_CHECK_TIMEOUT_S,
    validation_timeout: float = DEFAULT_VALIDATION_TIMEOUT_S,
) -> MiddlewareSettings:
    if not isinstance(schema_id, str) or schema_id == "":
        raise invalid_use("schema_id must be a non-empty string")
    if not isinstance(validator, ContractValidator):
        raise invalid_use("validator must be a ContractValidator")
    if mode not in VALIDATION_MODES:
        raise invalid_use(f"mode must be one of {', '.join(VALIDATION_MODES)} (got {mode!r})")
    if isinstance(sample_rate, bool) or not isinstance(sample_rate, (int, float)) or not 0 <= sample_rate <= 1:
        raise invalid_use(f"sample_rate must be a number from 0 to 1 (got {sample_rate!r})")
    if on_violation is not None and not callable(on_violation):
        raise invalid_use("on_violation must be callable")
    return MiddlewareSettings(
        schema_id=schema_id,
        schema_version=schema_version,
        validator=validator,
        mode=mode,
        included=compile_path_patterns("include_paths", include_paths),
        excluded=compile_path_patterns("exclude_paths", exclude_paths),
        sample_rate=float(sample_rate),
        on_violation=on_violation,
        logger=logger or logging.getLogger(DEFAULT_LOGGER_NAME),
        fail_open=bool(fail_open),
        max_body_bytes=positive_int("max_body_bytes", max_body_bytes) or DEFAULT_MAX_BODY_BYTES,
        max_queue_size=positive_int("max_queue_size", max_queue_size) or DEFAULT_MAX_QUEUE_SIZE,
        request_check_timeout=positive_seconds("request_check_timeout", request_check_timeout)
        or DEFAULT_REQUEST_CHECK_TIMEOUT_S,
        validation_timeout=positive_seconds("validation_timeout", validation_timeout) or DEFAULT_VALIDATION_TIMEOUT_S,
    )
