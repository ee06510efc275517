"""The framework-independent core of the producer middleware.

Which exchanges are validated (path filters, sampling), the strict-mode request check, the
validation after the response, and what a violation leads to in each mode (400, log line, count,
callback). Two promises hold everywhere: the work after the response runs on a background thread
(bounded queue; a full queue drops and counts), and a validator that fails, is slow or unreachable
never fails the application: the failure is counted and reported, the traffic goes on. In strict
mode a request that cannot be checked goes on as well, unless ``fail_open=False``.
"""

from __future__ import annotations

import http
import json
import random
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..errors import ContractValidatorError
from ..types import HttpRequest, HttpResponse, Interaction, ValidationResult
from ..wire import normalize_headers
from .background import BackgroundWorker
from .options import (
    MAX_VALIDATION_BATCH,
    VALIDATOR_ERROR_LOG_INTERVAL_S,
    ContractViolation,
    MiddlewareSettings,
    ValidationMode,
    ViolationPhase,
)

HeaderPairs = Iterable[tuple[str, str]] | Mapping[str, str]

REJECTION_CONTENT_TYPE: Final = "application/json; charset=utf-8"


@dataclass(frozen=True, slots=True)
class CapturedRequest:
    method: str
    path: str
    """Path with query string, percent-encoded as the client wrote it."""
    headers: HeaderPairs
    body: bytes
    complete: bool
    """False when the body was over ``max_body_bytes`` or could not be read ahead (strict mode): the
    exchange is not validated."""
    body_unread: bool = False
    """The request came with a body that the application never read (a handler that answered
    without it): its bytes are unknown, so only the response is checked, as in strict mode."""


@dataclass(frozen=True, slots=True)
class CapturedResponse:
    status_code: int
    headers: HeaderPairs
    body: bytes
    complete: bool


@dataclass(frozen=True, slots=True)
class Rejection:
    """The answer to a request refused in strict mode."""

    status_code: int
    body: Mapping[str, Any]

    @property
    def status_line(self) -> str:
        """``400 Bad Request``, as WSGI's ``start_response`` takes it."""
        return f"{self.status_code} {http.HTTPStatus(self.status_code).phrase}"

    def payload(self) -> bytes:
        return json.dumps(self.body).encode("utf-8")


@dataclass(frozen=True, slots=True)
class ProducerValidationStats:
    validated: int
    """Exchanges (or strict-mode requests) the validator answered for."""
    violations: int
    """Of those, the ones with violations."""
    rejected: int
    """Requests answered with 400 (or 503 with ``fail_open=False``) in strict mode."""
    skipped: int
    """Exchanges left out: path filters, sampling, bodies over the size limit."""
    dropped: int
    """Exchanges not validated because the queue was full."""
    validator_errors: int
    """Validator calls that failed (unreachable, deadline, refused); the traffic went on."""
    pending: int
    """Exchanges queued or being validated now."""


@dataclass(frozen=True, slots=True)
class _Exchange:
    request: CapturedRequest
    response: CapturedResponse


class ProducerValidation:
    def __init__(self, settings: MiddlewareSettings) -> None:
        self.settings = settings
        self._lock = threading.Lock()
        self._counts = {"validated": 0, "violations": 0, "rejected": 0, "skipped": 0, "dropped": 0, "validator_errors": 0}
        self._worker: BackgroundWorker[_Exchange] = BackgroundWorker(
            self._validate_batch,
            max_queue_size=settings.max_queue_size,
            max_batch=MAX_VALIDATION_BATCH,
            name=f"svc-middleware-{settings.schema_id}",
        )
        self._last_error_log = float("-inf")
        self._unreported_errors = 0

    @property
    def mode(self) -> ValidationMode:
        return self.settings.mode

    @property
    def max_body_bytes(self) -> int:
        return self.settings.max_body_bytes

    def _count(self, name: str, amount: int = 1) -> None:
        with self._lock:
            self._counts[name] += amount

    def selects(self, pathname: str) -> bool:
        """Whether this exchange is validated: path filters (on the decoded path, without query string)
        first, then sampling. Left-out ones are counted."""
        settings = self.settings
        selected = (
            (settings.included is None or settings.included(pathname))
            and not (settings.excluded is not None and settings.excluded(pathname))
            and (settings.sample_rate >= 1 or random.random() < settings.sample_rate)
        )
        if not selected:
            self._count("skipped")
        return selected

    def check_request(self, request: CapturedRequest) -> Rejection | None:
        """Strict mode, before the handler (blocking, bounded by ``request_check_timeout``).

        The rejection to answer with, or None to go on. Never raises.
        """
        if not request.complete:
            self._count("skipped")
            return None
        settings = self.settings
        try:
            result = settings.validator.validate_request(
                _http_request(request, with_body=True),
                schema_id=settings.schema_id,
                schema_version=settings.schema_version,
                timeout=settings.request_check_timeout,
            )
        except ContractValidatorError as error:
            self._validator_failed(error, 1)
            if settings.fail_open:
                return None
            self._count("rejected")
            return Rejection(
                503,
                {"error": "Service Unavailable", "message": "The request could not be checked against the API contract", "errors": []},
            )
        self._count("validated")
        if result.valid:
            return None
        self._count("rejected")
        self._report("request", request, None, result)
        return Rejection(
            400, {"error": "Bad Request", "message": "The request does not match the API contract", "errors": list(result.errors)}
        )

    def after_response(self, request: CapturedRequest, response: CapturedResponse) -> None:
        """Queues the exchange for the background worker; never blocks, never raises."""
        if (not self._response_only(request) and not request.complete) or not response.complete:
            self._count("skipped")
            return
        if not self._worker.submit(_Exchange(request, response)):
            self._count("dropped")

    def stats(self) -> ProducerValidationStats:
        with self._lock:
            counts = dict(self._counts)
        return ProducerValidationStats(**counts, pending=self._worker.unfinished)

    def flush(self, timeout: float = 10.0) -> bool:
        """Waits for the validations queued so far (tests, graceful shutdown); False on time-out."""
        return self._worker.flush(timeout)

    def close(self) -> None:
        """Validates what is queued, then stops the worker; idempotent. The validator stays open."""
        self._worker.close()

    def _response_only(self, request: CapturedRequest) -> bool:
        """Strict mode checked the request before the handler; a body nothing read cannot be checked at all."""
        return self.settings.mode == "strict" or request.body_unread

    def _validate_batch(self, batch: Sequence[_Exchange]) -> None:
        alone = [self._response_only(exchange.request) for exchange in batch]
        try:
            interactions = iter(self._validate_interactions([exchange for exchange, only in zip(batch, alone) if not only]))
            results = [
                self._validate_response(exchange) if only else next(interactions) for exchange, only in zip(batch, alone)
            ]
        except ContractValidatorError as error:
            self._validator_failed(error, len(batch))
            return
        except Exception as error:  # a bug must not kill the worker thread; it is reported like a failure
            self._validator_failed(ContractValidatorError("INTERNAL", repr(error)), len(batch))
            return
        self._count("validated", len(results))
        for exchange, only, result in zip(batch, alone, results):
            if not result.valid:
                self._report("response" if only else "interaction", exchange.request, exchange.response.status_code, result)

    def _validate_response(self, exchange: _Exchange) -> ValidationResult:
        settings = self.settings
        return settings.validator.validate_producer_response(
            exchange.request.method,
            exchange.request.path,
            _http_response(exchange.response),
            request=_http_request(exchange.request, with_body=False),
            schema_id=settings.schema_id,
            schema_version=settings.schema_version,
            timeout=settings.validation_timeout,
        )

    def _validate_interactions(self, exchanges: Sequence[_Exchange]) -> list[ValidationResult]:
        settings = self.settings
        if not exchanges:
            return []
        if len(exchanges) == 1:
            exchange = exchanges[0]
            return [
                settings.validator.validate(
                    _http_request(exchange.request, with_body=True),
                    _http_response(exchange.response),
                    schema_id=settings.schema_id,
                    schema_version=settings.schema_version,
                    timeout=settings.validation_timeout,
                )
            ]
        return settings.validator.validate_many(
            [Interaction(_http_request(exchange.request, with_body=True), _http_response(exchange.response)) for exchange in exchanges],
            schema_id=settings.schema_id,
            schema_version=settings.schema_version,
            timeout=settings.validation_timeout,
        )

    def _report(self, phase: ViolationPhase, request: CapturedRequest, status_code: int | None, result: ValidationResult) -> None:
        self._count("violations")
        settings = self.settings
        violation = ContractViolation(
            mode=settings.mode,
            phase=phase,
            schema_id=settings.schema_id,
            method=request.method,
            path=request.path,
            status_code=status_code,
            errors=result.errors,
            validated_against_version=result.validated_against_version,
        )
        details = {"svc_violation": violation}
        summary = "; ".join(result.errors)
        if settings.mode == "warn":
            settings.logger.warning("contract violation: %s %s: %s", request.method, request.path, summary, extra=details)
        elif settings.mode == "strict" and phase == "request":
            settings.logger.warning("request rejected: contract violation: %s %s: %s", request.method, request.path, summary, extra=details)
        elif settings.mode == "strict":
            settings.logger.error("response violates the contract: %s %s: %s", request.method, request.path, summary, extra=details)
        if settings.on_violation is not None:
            try:
                settings.on_violation(violation)
            except Exception:
                settings.logger.exception("on_violation callback raised")

    def _validator_failed(self, error: ContractValidatorError, exchanges: int) -> None:
        """A validator that keeps failing would flood the log: first failure, then one line per interval."""
        self._count("validator_errors", exchanges)
        with self._lock:
            self._unreported_errors += exchanges
            now = time.monotonic()
            if now - self._last_error_log < VALIDATOR_ERROR_LOG_INTERVAL_S:
                return
            failures, self._unreported_errors, self._last_error_log = self._unreported_errors, 0, now
        self.settings.logger.warning(
            "contract validator unavailable (%s, %d failures); traffic continues unvalidated", error, failures
        )


def _http_request(request: CapturedRequest, *, with_body: bool) -> HttpRequest:
    return HttpRequest(
        method=request.method,
        path=request.path,
        headers=normalize_headers(request.headers),
        body=request.body if with_body and request.body else None,
    )


def _http_response(response: CapturedResponse) -> HttpResponse:
    return HttpResponse(status_code=response.status_code, headers=normalize_headers(response.headers), body=response.body or None)

