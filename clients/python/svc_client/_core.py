"""The core shared by ``ContractValidator`` and ``AsyncContractValidator``.

Free of I/O: each operation is described as a ``UnaryCall`` (operation name, request message,
deadline, and the function that turns the response into the result or raises). The sync client
runs it on a blocking channel, the async client awaits it on an asyncio channel; both give the same
answers because everything but the wait is here.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Final, Generic, Literal, TypeVar

from google.protobuf.message import Message

from ._generated import svc_pb2 as pb
from .errors import ContractValidatorError, invalid_use, rejected
from .options import ClientSettings, positive_seconds, require_text
from .results import (
    to_breaking_changes,
    to_can_i_deploy_result,
    to_compare_result,
    to_consumer_info,
    to_endpoint_info,
    to_endpoint_usage_message,
    to_generated_request,
    to_generated_response,
    to_schema_metadata,
    to_schema_ownership_message,
    to_validation_result,
)
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
from .wire import as_interaction, parse_body_text, to_request_data, to_response_data

ResultT = TypeVar("ResultT")

MAX_STREAM_REOPENS: Final = 3
"""validate_many: streams reopened after an UNAVAILABLE end that followed some progress."""
UNARY_FALLBACK_CONCURRENCY: Final = 16
"""validate_many: unary calls in flight when the server has no streaming operation."""


@dataclass(frozen=True, slots=True)
class UnaryCall(Generic[ResultT]):
    operation: str
    """Method name on the generated stub (``ValidateInteraction``)."""
    request: Message
    timeout: float
    finish: Callable[[Any], ResultT]
    """Response message → result; raises ContractValidatorError(REJECTED) for a refusal."""


class ClientCore:
    """Options, the schema the client is bound to, and the request/response mapping of every operation."""

    def __init__(self, settings: ClientSettings) -> None:
        self.settings = settings
        self.schema_id: str | None = settings.schema_id
        self.schema_version: str | None = settings.schema_version

    def timeout(self, timeout: float | None) -> float:
        return positive_seconds("timeout", timeout) or self.settings.timeout

    def schema(self, schema_id: str | None, schema_version: str | None) -> tuple[str, str]:
        """The schema a call works on: the given one, else the bound one (with its bound version)."""
        target = schema_id if schema_id is not None else self.schema_id
        if not target:
            raise ContractValidatorError("FAILED_PRECONDITION", "no schema: call register_schema first, or pass schema_id")
        bound_version = self.schema_version if target == self.schema_id else None
        return target, schema_version or bound_version or ""

    def register_schema(
        self,
        schema_id: str,
        content: str,
        *,
        version: str | None,
        ownership: SchemaOwnership | None,
        check_compatibility: bool,
        timeout: float | None,
    ) -> UnaryCall[SchemaRegistration]:
        request = pb.RegisterSchemaRequest(
            schema_id=require_text("schema_id", schema_id),
            schema_content=content,
            schema_version=version or "",
            check_compatibility=check_compatibility,
        )
        if ownership is not None:
            request.ownership.CopyFrom(to_schema_ownership_message(ownership))

        def finish(response: pb.RegisterSchemaResponse) -> SchemaRegistration:
            if not response.success or not response.HasField("metadata"):
                raise rejected("RegisterSchema", response.message)
            metadata = to_schema_metadata(response.metadata)
            # The client is bound to the schema registered through it.
            self.schema_id, self.schema_version = metadata.schema_id, metadata.schema_version
            return SchemaRegistration(
                message=response.message,
                metadata=metadata,
                breaking_changes=to_breaking_changes(response.breaking_changes),
            )

        return UnaryCall("RegisterSchema", request, self.timeout(timeout), finish)

    def get_schema(self, schema_id: str, version: str | None, timeout: float | None) -> UnaryCall[SchemaContent | None]:
        request = pb.GetSchemaRequest(schema_id=require_text("schema_id", schema_id), schema_version=version or "")

        def finish(response: pb.GetSchemaResponse) -> SchemaContent | None:
            if not response.found or not response.HasField("metadata"):
                return None
            return SchemaContent(metadata=to_schema_metadata(response.metadata), content=response.schema_content)

        return UnaryCall("GetSchema", request, self.timeout(timeout), finish)

    def list_schemas(
        self, page_size: int | None, page_token: str | None, owner: str | None, team: str | None, timeout: float | None
    ) -> UnaryCall[SchemaPage]:
        request = pb.ListSchemasRequest(page_size=page_size or 0, page_token=page_token or "", owner=owner or "", team=team or "")

        def finish(response: pb.ListSchemasResponse) -> SchemaPage:
            return SchemaPage(
                schemas=tuple(map(to_schema_metadata, response.schemas)),
                next_page_token=response.next_page_token,
                total_count=response.total_count,
            )

        return UnaryCall("ListSchemas", request, self.timeout(timeout), finish)

    def validate(
        self,
        request: RequestLike,
        response: ResponseLike | None,
        schema_id: str | None,
        schema_version: str | None,
        timeout: float | None,
    ) -> UnaryCall[ValidationResult]:
        target, version = self.schema(schema_id, schema_version)
        message = pb.InteractionRequest(schema_id=target, schema_version=version, request=to_request_data(request))
        if response is not None:
            message.response.CopyFrom(to_response_data(response))
        return UnaryCall("ValidateInteraction", message, self.timeout(timeout), to_validation_result)

    def validate_producer_response(
        self,
        method: str,
        path: str,
        response: ResponseLike,
        request: RequestLike | None,
        schema_id: str | None,
        schema_version: str | None,
        timeout: float | None,
    ) -> UnaryCall[ValidationResult]:
        target, version = self.schema(schema_id, schema_version)
        request_data = to_request_data(request if request is not None else {"method": method, "path": path})
        message = pb.ValidateProducerRequest(
            schema_id=target,
            schema_version=version,
            method=request_data.method,
            path=require_text("path", path),
            response=to_response_data(response),
        )
        if request is not None:
            message.request.CopyFrom(request_data)
        return UnaryCall("ValidateProducerResponse", message, self.timeout(timeout), to_validation_result)

    def interaction_messages(
        self, interactions: Iterable[InteractionLike], schema_id: str | None, schema_version: str | None
    ) -> list[pb.InteractionRequest]:
        target, version = self.schema(schema_id, schema_version)
        messages = []
        for item in interactions:
            interaction = as_interaction(item)
            messages.append(
                pb.InteractionRequest(
                    schema_id=target,
                    schema_version=version,
                    request=to_request_data(interaction.request),
                    response=to_response_data(interaction.response),
                )
            )
        return messages

    def compare_schemas(
        self, schema_id: str, old_version: str | None, new_version: str | None, timeout: float | None
    ) -> UnaryCall[CompareResult]:
        request = pb.CompareSchemasRequest(
            schema_id=require_text("schema_id", schema_id), old_version=old_version or "", new_version=new_version or ""
        )

        def finish(response: pb.CompareSchemasResponse) -> CompareResult:
            if response.message and not response.HasField("old_schema") and not response.HasField("new_schema"):
                raise rejected("CompareSchemas", response.message)
            return to_compare_result(response)

        return UnaryCall("CompareSchemas", request, self.timeout(timeout), finish)

    def generate_fixture(
        self,
        method: str,
        path: str,
        status_code: int | None,
        use_examples: bool,
        content_type: str | None,
        schema_id: str | None,
        schema_version: str | None,
        timeout: float | None,
    ) -> UnaryCall[GeneratedFixture]:
        def finish(response: pb.GenerateFixtureResponse) -> GeneratedFixture:
            if not response.fixture.HasField("request") or not response.fixture.HasField("response"):
                raise rejected("GenerateFixture", "the server sent no fixture")
            return GeneratedFixture(
                request=to_generated_request(response.fixture.request),
                response=to_generated_response(response.fixture.response),
            )

        return self._generate(
            method, path, pb.OUTPUT_FIXTURE, status_code, use_examples, content_type, schema_id, schema_version, timeout, finish
        )

    def generate_response(
        self,
        method: str,
        path: str,
        status_code: int | None,
        use_examples: bool,
        content_type: str | None,
        schema_id: str | None,
        schema_version: str | None,
        timeout: float | None,
    ) -> UnaryCall[GeneratedResponse]:
        def finish(response: pb.GenerateFixtureResponse) -> GeneratedResponse:
            if not response.HasField("response"):
                raise rejected("GenerateFixture", "the server sent no response")
            return to_generated_response(response.response)

        return self._generate(
            method, path, pb.OUTPUT_RESPONSE, status_code, use_examples, content_type, schema_id, schema_version, timeout, finish
        )

    def generate_request_body(
        self,
        method: str,
        path: str,
        use_examples: bool,
        content_type: str | None,
        schema_id: str | None,
        schema_version: str | None,
        timeout: float | None,
    ) -> UnaryCall[Any]:
        def finish(response: pb.GenerateFixtureResponse) -> Any:
            return parse_body_text(response.request_body)

        return self._generate(
            method, path, pb.OUTPUT_REQUEST, None, use_examples, content_type, schema_id, schema_version, timeout, finish
        )

    def _generate(
        self,
        method: str,
        path: str,
        output_type: pb.OutputType,
        status_code: int | None,
        use_examples: bool,
        content_type: str | None,
        schema_id: str | None,
        schema_version: str | None,
        timeout: float | None,
        shape: Callable[[pb.GenerateFixtureResponse], ResultT],
    ) -> UnaryCall[ResultT]:
        """GenerateFixture with one ``output_type``; ``shape`` turns an accepted answer into the result."""
        target, version = self.schema(schema_id, schema_version)
        request = pb.GenerateFixtureRequest(
            schema_id=target,
            schema_version=version,
            method=require_text("method", method).upper(),
            path=require_text("path", path),
            status_code=status_code or 0,
            use_examples=use_examples,
            content_type=content_type or "",
            output_type=output_type,
        )

        def finish(response: pb.GenerateFixtureResponse) -> ResultT:
            if not response.success:
                raise rejected("GenerateFixture", response.message)
            return shape(response)

        return UnaryCall("GenerateFixture", request, self.timeout(timeout), finish)

    def list_endpoints(
        self, schema_id: str | None, schema_version: str | None, timeout: float | None
    ) -> UnaryCall[list[EndpointInfo]]:
        target, version = self.schema(schema_id, schema_version)

        def finish(response: pb.ListEndpointsResponse) -> list[EndpointInfo]:
            return [to_endpoint_info(endpoint) for endpoint in response.endpoints]

        return UnaryCall("ListEndpoints", pb.ListEndpointsRequest(schema_id=target, schema_version=version), self.timeout(timeout), finish)

    def register_consumer(self, registration: ConsumerRegistration, timeout: float | None) -> UnaryCall[ConsumerInfo]:
        if not isinstance(registration, ConsumerRegistration):
            raise invalid_use("register_consumer needs a ConsumerRegistration")
        request = pb.RegisterConsumerRequest(
            consumer_id=require_text("consumer_id", registration.consumer_id),
            consumer_version=registration.consumer_version or "",
            schema_id=require_text("schema_id", registration.schema_id),
            schema_version=registration.schema_version or "",
            environment=registration.environment or "",
            used_endpoints=[to_endpoint_usage_message(usage) for usage in registration.used_endpoints],
        )

        def finish(response: pb.RegisterConsumerResponse) -> ConsumerInfo:
            if not response.success or not response.HasField("consumer"):
                raise rejected("RegisterConsumer", response.message)
            return to_consumer_info(response.consumer)

        return UnaryCall("RegisterConsumer", request, self.timeout(timeout), finish)

    def list_consumers(self, schema_id: str, environment: str | None, timeout: float | None) -> UnaryCall[list[ConsumerInfo]]:
        request = pb.ListConsumersRequest(schema_id=require_text("schema_id", schema_id), environment=environment or "")

        def finish(response: pb.ListConsumersResponse) -> list[ConsumerInfo]:
            return [to_consumer_info(consumer) for consumer in response.consumers]

        return UnaryCall("ListConsumers", request, self.timeout(timeout), finish)

    def deregister_consumer(
        self, consumer_id: str, schema_id: str, environment: str | None, timeout: float | None
    ) -> UnaryCall[None]:
        request = pb.DeregisterConsumerRequest(
            consumer_id=require_text("consumer_id", consumer_id),
            schema_id=require_text("schema_id", schema_id),
            environment=environment or "",
        )

        def finish(response: pb.DeregisterConsumerResponse) -> None:
            if not response.success:
                raise rejected("DeregisterConsumer", response.message)

        return UnaryCall("DeregisterConsumer", request, self.timeout(timeout), finish)

    def can_i_deploy(
        self, schema_id: str, new_version: str, environment: str | None, timeout: float | None
    ) -> UnaryCall[CanIDeployResult]:
        request = pb.CanIDeployRequest(
            schema_id=require_text("schema_id", schema_id),
            new_version=require_text("new_version", new_version),
            environment=environment or "",
        )
        return UnaryCall("CanIDeploy", request, self.timeout(timeout), to_can_i_deploy_result)

    def latest_version_of(self, schema_id: str, content: SchemaContent | None) -> str:
        if content is None:
            raise ContractValidatorError("NOT_FOUND", f"Schema not found: {schema_id}")
        return content.metadata.schema_version


class ValidateManyRun:
    """The bookkeeping of one ``validate_many`` batch, shared by the sync and async clients.

    Requests are tagged with their index as ``correlation_id`` and results placed by it. A stream
    that ends UNAVAILABLE after answering part of the batch is reopened for the rest a bounded
    number of times; a server without the streaming operation (UNIMPLEMENTED before any result)
    gets unary calls instead. The deadline covers the whole batch.
    """

    def __init__(self, requests: list[pb.InteractionRequest], timeout: float) -> None:
        self.requests = requests
        self.deadline = time.monotonic() + timeout
        self.results: list[pb.ValidationResult | None] = [None] * len(requests)
        self.pending = list(range(len(requests)))
        self.reopens = 0
        self.answered = 0

    def remaining(self) -> float:
        # grpc treats a zero or negative timeout as already expired; keep a floor so it says so itself.
        return max(0.001, self.deadline - time.monotonic())

    def outgoing(self) -> Iterator[pb.InteractionRequest]:
        self.answered = 0
        for index in self.pending:
            message = self.requests[index]
            message.correlation_id = str(index)
            yield message

    def accept(self, result: pb.ValidationResult) -> None:
        try:
            index = int(result.correlation_id)
        except ValueError:
            index = -1
        if not 0 <= index < len(self.results) or self.results[index] is not None:
            raise ContractValidatorError("INTERNAL", f'the server answered an unknown correlation_id "{result.correlation_id}"')
        self.results[index] = result
        self.answered += 1

    def after_stream(self, error: ContractValidatorError | None) -> Literal["done", "again", "unary"]:
        """What to do once a stream ended; raises when the batch failed."""
        if error is None and self.answered < len(self.pending):
            error = ContractValidatorError(
                "UNAVAILABLE", f"the stream ended after {self.answered} of {len(self.pending)} results"
            )
        if error is None:
            return "done"
        never_answered = self.answered == 0 and len(self.pending) == len(self.requests)
        if error.code == "UNIMPLEMENTED" and never_answered:
            return "unary"
        if error.code != "UNAVAILABLE" or self.answered == 0 or self.reopens >= MAX_STREAM_REOPENS:
            raise error
        self.reopens += 1
        self.pending = [index for index in self.pending if self.results[index] is None]
        return "again"

    def finished(self) -> list[ValidationResult]:
        return [to_validation_result(result) for result in self.results if result is not None]
