"""ContractValidator: the blocking client of the svc service.

One gRPC channel per instance (thread-safe). The instance is bound to the schema registered through
it (or given as ``schema_id``), so consumer tests read ``validate(request, response)`` without
repeating the schema id. Transport failures and refused operations raise ContractValidatorError;
validation failures are returned (``valid=False``), never raised.
"""

from __future__ import annotations

from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from ._client_base import ClientBase, ClosesOnExit
from ._core import UNARY_FALLBACK_CONCURRENCY, UnaryCall, ValidateManyRun
from ._generated import svc_pb2 as pb
from ._transport import Transport
from .consumer.build_consumer import build_consumer_registration
from .errors import ContractValidatorError
from .options import SCHEMA_FETCH_TIMEOUT_S, ClientSettings, StrPath, require_text
from .results import to_validation_result
from .schema_source import read_schema_source
from .types import (
    CanIDeployResult,
    CompareResult,
    ConsumerInfo,
    ConsumerRegistration,
    EndpointInfo,
    GeneratedFixture,
    GeneratedResponse,
    InteractionLike,
    RequestLike,
    ResponseLike,
    SchemaContent,
    SchemaOwnership,
    SchemaPage,
    SchemaRegistration,
    ValidationResult,
)

T = TypeVar("T")


class ContractValidator(ClientBase[Transport], ClosesOnExit):
    """Blocking client; use it as a context manager or call ``close()``."""

    def _open_transport(self, settings: ClientSettings) -> Transport:
        return Transport(settings)

    def _run(self, call: UnaryCall[T]) -> T:
        return call.finish(self._transport.unary(call.operation, call.request, call.timeout))

    def register_schema(
        self,
        schema_id: str,
        schema_path: StrPath,
        *,
        version: str | None = None,
        ownership: SchemaOwnership | None = None,
        check_compatibility: bool = False,
        timeout: float | None = None,
    ) -> SchemaRegistration:
        """Registers the document at ``schema_path`` (file or http(s) URL, JSON or YAML) and binds the client to it."""
        require_text("schema_id", schema_id)
        content = read_schema_source(schema_path, SCHEMA_FETCH_TIMEOUT_S)
        return self._run(
            self._core.register_schema(
                schema_id,
                content,
                version=version,
                ownership=ownership,
                check_compatibility=check_compatibility,
                timeout=timeout,
            )
        )

    def register_schema_with_version(
        self,
        schema_id: str,
        schema_path: StrPath,
        version: str,
        *,
        ownership: SchemaOwnership | None = None,
        check_compatibility: bool = False,
        timeout: float | None = None,
    ) -> SchemaRegistration:
        require_text("version", version)
        return self.register_schema(
            schema_id, schema_path, version=version, ownership=ownership, check_compatibility=check_compatibility, timeout=timeout
        )

    def get_schema(self, schema_id: str, version: str | None = None, *, timeout: float | None = None) -> SchemaContent | None:
        """Metadata and content of a registered schema; None when it (or the version) is not registered."""
        return self._run(self._core.get_schema(schema_id, version, timeout))

    def list_schemas(
        self,
        *,
        page_size: int | None = None,
        page_token: str | None = None,
        owner: str | None = None,
        team: str | None = None,
        timeout: float | None = None,
    ) -> SchemaPage:
        return self._run(self._core.list_schemas(page_size, page_token, owner, team, timeout))

    def validate(
        self,
        request: RequestLike,
        response: ResponseLike,
        *,
        schema_id: str | None = None,
        schema_version: str | None = None,
        timeout: float | None = None,
    ) -> ValidationResult:
        """Consumer validation: the request and the response are both checked."""
        return self._run(self._core.validate(request, response, schema_id, schema_version, timeout))

    def validate_request(
        self,
        request: RequestLike,
        *,
        schema_id: str | None = None,
        schema_version: str | None = None,
        timeout: float | None = None,
    ) -> ValidationResult:
        """Checks a request alone, for example before a handler runs."""
        return self._run(self._core.validate(request, None, schema_id, schema_version, timeout))

    def validate_producer_response(
        self,
        method: str,
        path: str,
        response: ResponseLike,
        *,
        request: RequestLike | None = None,
        schema_id: str | None = None,
        schema_version: str | None = None,
        timeout: float | None = None,
    ) -> ValidationResult:
        """Producer validation: only the response is checked (``request`` only lends headers and query)."""
        return self._run(
            self._core.validate_producer_response(method, path, response, request, schema_id, schema_version, timeout)
        )

    def validate_many(
        self,
        interactions: Iterable[InteractionLike],
        *,
        schema_id: str | None = None,
        schema_version: str | None = None,
        timeout: float | None = None,
    ) -> list[ValidationResult]:
        """Validates many interactions over one stream; results come back in the order given.

        The deadline covers the whole batch.
        """
        messages = self._core.interaction_messages(interactions, schema_id, schema_version)
        run = ValidateManyRun(messages, self._core.timeout(timeout))
        while run.pending:
            error: ContractValidatorError | None = None
            try:
                for result in self._transport.stream(run.outgoing(), run.remaining()):
                    run.accept(result)
            except ContractValidatorError as failure:
                error = failure
            step = run.after_stream(error)
            if step == "done":
                break
            if step == "unary":
                return self._validate_unary(messages, run)
        return run.finished()

    def _validate_unary(self, messages: list[pb.InteractionRequest], run: ValidateManyRun) -> list[ValidationResult]:
        def one(message: pb.InteractionRequest) -> ValidationResult:
            answer = self._transport.unary("ValidateInteraction", message, run.remaining())
            return to_validation_result(answer)

        # The pool's map raises the first failure; leaving the block waits for the calls in flight.
        with ThreadPoolExecutor(max_workers=min(UNARY_FALLBACK_CONCURRENCY, len(messages))) as pool:
            return list(pool.map(one, messages))

    def compare_schemas(
        self,
        schema_id: str,
        old_version: str | None = None,
        new_version: str | None = None,
        *,
        timeout: float | None = None,
    ) -> CompareResult:
        """Breaking changes between two versions: no old version means the previous one, no new one the latest."""
        return self._run(self._core.compare_schemas(schema_id, old_version, new_version, timeout))

    def generate_fixture(
        self,
        method: str,
        path: str,
        *,
        status_code: int | None = None,
        use_examples: bool = True,
        content_type: str | None = None,
        schema_id: str | None = None,
        schema_version: str | None = None,
        timeout: float | None = None,
    ) -> GeneratedFixture:
        """A request/response pair for ``method`` and the path template ``path``, valid against the schema."""
        return self._run(
            self._core.generate_fixture(method, path, status_code, use_examples, content_type, schema_id, schema_version, timeout)
        )

    def generate_response(
        self,
        method: str,
        path: str,
        *,
        status_code: int | None = None,
        use_examples: bool = True,
        content_type: str | None = None,
        schema_id: str | None = None,
        schema_version: str | None = None,
        timeout: float | None = None,
    ) -> GeneratedResponse:
        return self._run(
            self._core.generate_response(method, path, status_code, use_examples, content_type, schema_id, schema_version, timeout)
        )

    def generate_request_body(
        self,
        method: str,
        path: str,
        *,
        use_examples: bool = True,
        content_type: str | None = None,
        schema_id: str | None = None,
        schema_version: str | None = None,
        timeout: float | None = None,
    ) -> Any:
        """The generated request body parsed from its JSON text (None when the operation takes none)."""
        return self._run(
            self._core.generate_request_body(method, path, use_examples, content_type, schema_id, schema_version, timeout)
        )

    def list_endpoints(
        self, *, schema_id: str | None = None, schema_version: str | None = None, timeout: float | None = None
    ) -> list[EndpointInfo]:
        return self._run(self._core.list_endpoints(schema_id, schema_version, timeout))

    def register_consumer(self, registration: ConsumerRegistration, *, timeout: float | None = None) -> ConsumerInfo:
        return self._run(self._core.register_consumer(registration, timeout))

    def list_consumers(self, schema_id: str, environment: str | None = None, *, timeout: float | None = None) -> list[ConsumerInfo]:
        return self._run(self._core.list_consumers(schema_id, environment, timeout))

    def deregister_consumer(
        self, consumer_id: str, schema_id: str, environment: str | None = None, *, timeout: float | None = None
    ) -> None:
        """Removes the registration ``consumer_id/schema_id/environment`` (environment default ``dev``)."""
        self._run(self._core.deregister_consumer(consumer_id, schema_id, environment, timeout))

    def can_i_deploy(
        self, schema_id: str, new_version: str, environment: str | None = None, *, timeout: float | None = None
    ) -> CanIDeployResult:
        """Would ``new_version`` break a consumer registered in ``environment`` (default ``prod``)?"""
        return self._run(self._core.can_i_deploy(schema_id, new_version, environment, timeout))

    def build_consumer_from_interactions(
        self,
        interactions: Iterable[InteractionLike],
        *,
        consumer_id: str,
        consumer_version: str,
        environment: str | None = None,
        schema_id: str | None = None,
        schema_version: str | None = None,
    ) -> ConsumerRegistration:
        """Builds (without registering) the consumer registration the interactions show.

        Real paths are mapped to the schema's templates (ListEndpoints) and the response fields are
        gathered per endpoint. Interactions that match no endpoint of the schema are left out. The
        version is the one given, else the bound one, else the latest registered.
        """
        target, version = self._core.schema(schema_id, schema_version)
        if version == "":
            version = self._core.latest_version_of(target, self.get_schema(target))
        endpoints = self.list_endpoints(schema_id=target, schema_version=version)
        return build_consumer_registration(
            interactions,
            endpoints,
            consumer_id=consumer_id,
            consumer_version=consumer_version,
            schema_id=target,
            schema_version=version,
            environment=environment,
        ).registration

    def register_consumer_from_interactions(
        self,
        interactions: Iterable[InteractionLike],
        *,
        consumer_id: str,
        consumer_version: str,
        environment: str | None = None,
        schema_id: str | None = None,
        schema_version: str | None = None,
    ) -> ConsumerInfo:
        return self.register_consumer(
            self.build_consumer_from_interactions(
                interactions,
                consumer_id=consumer_id,
                consumer_version=consumer_version,
                environment=environment,
                schema_id=schema_id,
                schema_version=schema_version,
            )
        )

    def close(self) -> None:
        """Closes the channel; idempotent. Later calls raise ContractValidatorError(FAILED_PRECONDITION)."""
        self._transport.close()
