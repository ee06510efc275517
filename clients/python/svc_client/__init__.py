"""The svc Python client library.

Consumer side: ``ContractValidator`` / ``AsyncContractValidator`` (validate, fixtures, consumer
registry, can-i-deploy) and interaction capture for ``requests`` and ``httpx``. Producer side:
``ProducerTestKit`` (with a pytest plugin) and ASGI / WSGI middleware (``svc_client.middleware``).
"""

from .aio import AsyncContractValidator
from .client import ContractValidator
from .consumer.build_consumer import ConsumerBuild, build_consumer_registration
from .consumer.path_templates import create_endpoint_matcher
from .errors import REJECTED, ContractValidatorError
from .options import DEFAULT_ADDRESS, DEFAULT_TIMEOUT_S, TlsConfig
from .testing import ProducerTestKit
from .types import (
    BreakingChange,
    BreakingChangeType,
    CanIDeployResult,
    CompareResult,
    ConsumerImpact,
    ConsumerInfo,
    ConsumerRegistration,
    EndpointInfo,
    EndpointUsage,
    GeneratedFixture,
    GeneratedRequest,
    GeneratedResponse,
    HttpRequest,
    HttpResponse,
    Interaction,
    SchemaContent,
    SchemaMetadata,
    SchemaOwnership,
    SchemaPage,
    SchemaRegistration,
    ValidationResult,
)

__all__ = [
    "AsyncContractValidator",
    "BreakingChange",
    "BreakingChangeType",
    "CanIDeployResult",
    "CompareResult",
    "ConsumerBuild",
    "ConsumerImpact",
    "ConsumerInfo",
    "ConsumerRegistration",
    "ContractValidator",
    "ContractValidatorError",
    "DEFAULT_ADDRESS",
    "DEFAULT_TIMEOUT_S",
    "EndpointInfo",
    "EndpointUsage",
    "GeneratedFixture",
    "GeneratedRequest",
    "GeneratedResponse",
    "HttpRequest",
    "HttpResponse",
    "Interaction",
    "ProducerTestKit",
    "REJECTED",
    "SchemaContent",
    "SchemaMetadata",
    "SchemaOwnership",
    "SchemaPage",
    "SchemaRegistration",
    "TlsConfig",
    "ValidationResult",
    "build_consumer_registration",
    "create_endpoint_matcher",
]
