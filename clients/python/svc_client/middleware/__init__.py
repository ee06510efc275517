"""Producer middleware: validates a service's live traffic against its registered contract.

``ContractValidationMiddleware`` (ASGI: Starlette, FastAPI) and ``WSGIContractValidationMiddleware``
(WSGI: Flask, Django) share one core and one behaviour table:

| mode   | request violation        | response violation | validation runs            |
|--------|--------------------------|--------------------|----------------------------|
| strict | answered with 400        | logged as error    | request: before the handler|
| warn   | logged, request goes on  | logged             | after the response, off the request path |
| shadow | counted only             | counted only       | after the response, off the request path |

A validator that is down or slow never breaks the application; strict mode lets unchecked requests
through unless ``fail_open=False`` (then they are answered with 503).
"""

from .asgi import ContractValidationMiddleware
from .options import (
    DEFAULT_MAX_BODY_BYTES,
    DEFAULT_MAX_QUEUE_SIZE,
    DEFAULT_REQUEST_CHECK_TIMEOUT_S,
    DEFAULT_VALIDATION_TIMEOUT_S,
    VALIDATION_MODES,
    ContractViolation,
    ValidationMode,
    ViolationPhase,
)
from .validation import ProducerValidationStats
from .wsgi import WSGIContractValidationMiddleware

__all__ = [
    "ContractValidationMiddleware",
    "ContractViolation",
    "DEFAULT_MAX_BODY_BYTES",
    "DEFAULT_MAX_QUEUE_SIZE",
    "DEFAULT_REQUEST_CHECK_TIMEOUT_S",
    "DEFAULT_VALIDATION_TIMEOUT_S",
    "ProducerValidationStats",
    "VALIDATION_MODES",
    "ValidationMode",
    "ViolationPhase",
    "WSGIContractValidationMiddleware",
]
