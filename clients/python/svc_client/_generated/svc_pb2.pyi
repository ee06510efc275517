# Generated from proto/svc.proto by clients/python/scripts/generate_proto.py. DO NOT EDIT.
# Regenerate with `python scripts/generate_proto.py`; test.sh fails when this file is stale.
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class BreakingChangeType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    BREAKING_CHANGE_UNSPECIFIED: _ClassVar[BreakingChangeType]
    ENDPOINT_REMOVED: _ClassVar[BreakingChangeType]
    REQUIRED_FIELD_ADDED: _ClassVar[BreakingChangeType]
    TYPE_CHANGED: _ClassVar[BreakingChangeType]
    REQUIRED_PARAMETER_ADDED: _ClassVar[BreakingChangeType]
    RESPONSE_SCHEMA_CHANGED: _ClassVar[BreakingChangeType]
    ENUM_VALUE_REMOVED: _ClassVar[BreakingChangeType]

class OutputType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    OUTPUT_FIXTURE: _ClassVar[OutputType]
    OUTPUT_REQUEST: _ClassVar[OutputType]
    OUTPUT_RESPONSE: _ClassVar[OutputType]
BREAKING_CHANGE_UNSPECIFIED: BreakingChangeType
ENDPOINT_REMOVED: BreakingChangeType
REQUIRED_FIELD_ADDED: BreakingChangeType
TYPE_CHANGED: BreakingChangeType
REQUIRED_PARAMETER_ADDED: BreakingChangeType
RESPONSE_SCHEMA_CHANGED: BreakingChangeType
ENUM_VALUE_REMOVED: BreakingChangeType
OUTPUT_FIXTURE: OutputType
OUTPUT_REQUEST: OutputType
OUTPUT_RESPONSE: OutputType

class SchemaOwnership(_message.Message):
    __slots__ = ("owner", "team", "contact_email", "read_only")
    OWNER_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    CONTACT_EMAIL_FIELD_NUMBER: _ClassVar[int]
    READ_ONLY_FIELD_NUMBER: _ClassVar[int]
    owner: str
    team: str
    contact_email: str
    read_only: bool
    def __init__(self, owner: _Optional[str] = ..., team: _Optional[str] = ..., contact_email: _Optional[str] = ..., read_only: _Optional[bool] = ...) -> None: ...

class SchemaMetadata(_message.Message):
    __slots__ = ("schema_id", "schema_version", "schema_hash", "registered_at", "updated_at", "ownership", "openapi_version", "endpoint_count")
    SCHEMA_ID_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_VERSION_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_HASH_FIELD_NUMBER: _ClassVar[int]
    REGISTERED_AT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    OWNERSHIP_FIELD_NUMBER: _ClassVar[int]
    OPENAPI_VERSION_FIELD_NUMBER: _ClassVar[int]
    ENDPOINT_COUNT_FIELD_NUMBER: _ClassVar[int]
    schema_id: str
    schema_version: str
    schema_hash: str
    registered_at: int
    updated_at: int
    ownership: SchemaOwnership
    openapi_version: str
    endpoint_count: int
    def __init__(self, schema_id: _Optional[str] = ..., schema_version: _Optional[str] = ..., schema_hash: _Optional[str] = ..., registered_at: _Optional[int] = ..., updated_at: _Optional[int] = ..., ownership: _Optional[_Union[SchemaOwnership, _Mapping]] = ..., openapi_version: _Optional[str] = ..., endpoint_count: _Optional[int] = ...) -> None: ...

class BreakingChange(_message.Message):
    __slots__ = ("type", "path", "method", "description", "old_value", "new_value")
    TYPE_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    OLD_VALUE_FIELD_NUMBER: _ClassVar[int]
    NEW_VALUE_FIELD_NUMBER: _ClassVar[int]
    type: BreakingChangeType
    path: str
    method: str
    description: str
    old_value: str
    new_value: str
    def __init__(self, type: _Optional[_Union[BreakingChangeType, str]] = ..., path: _Optional[str] = ..., method: _Optional[str] = ..., description: _Optional[str] = ..., old_value: _Optional[str] = ..., new_value: _Optional[str] = ...) -> None: ...

class RequestData(_message.Message):
    __slots__ = ("method", "path", "headers", "body")
    class HeadersEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    METHOD_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    HEADERS_FIELD_NUMBER: _ClassVar[int]
    BODY_FIELD_NUMBER: _ClassVar[int]
    method: str
    path: str
    headers: _containers.ScalarMap[str, str]
    body: str
    def __init__(self, method: _Optional[str] = ..., path: _Optional[str] = ..., headers: _Optional[_Mapping[str, str]] = ..., body: _Optional[str] = ...) -> None: ...

class ResponseData(_message.Message):
    __slots__ = ("status_code", "headers", "body")
    class HeadersEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    STATUS_CODE_FIELD_NUMBER: _ClassVar[int]
    HEADERS_FIELD_NUMBER: _ClassVar[int]
    BODY_FIELD_NUMBER: _ClassVar[int]
    status_code: int
    headers: _containers.ScalarMap[str, str]
    body: str
    def __init__(self, status_code: _Optional[int] = ..., headers: _Optional[_Mapping[str, str]] = ..., body: _Optional[str] = ...) -> None: ...

class ValidationResult(_message.Message):
    __slots__ = ("valid", "errors", "validated_against_version", "validated_against_hash", "correlation_id")
    VALID_FIELD_NUMBER: _ClassVar[int]
    ERRORS_FIELD_NUMBER: _ClassVar[int]
    VALIDATED_AGAINST_VERSION_FIELD_NUMBER: _ClassVar[int]
    VALIDATED_AGAINST_HASH_FIELD_NUMBER: _ClassVar[int]
    CORRELATION_ID_FIELD_NUMBER: _ClassVar[int]
    valid: bool
    errors: _containers.RepeatedScalarFieldContainer[str]
    validated_against_version: str
    validated_against_hash: str
    correlation_id: str
    def __init__(self, valid: _Optional[bool] = ..., errors: _Optional[_Iterable[str]] = ..., validated_against_version: _Optional[str] = ..., validated_against_hash: _Optional[str] = ..., correlation_id: _Optional[str] = ...) -> None: ...

class EndpointUsage(_message.Message):
    __slots__ = ("method", "path", "used_fields")
    METHOD_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    USED_FIELDS_FIELD_NUMBER: _ClassVar[int]
    method: str
    path: str
    used_fields: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, method: _Optional[str] = ..., path: _Optional[str] = ..., used_fields: _Optional[_Iterable[str]] = ...) -> None: ...

class ConsumerInfo(_message.Message):
    __slots__ = ("consumer_id", "consumer_version", "schema_id", "schema_version", "environment", "registered_at", "last_validated_at", "used_endpoints")
    CONSUMER_ID_FIELD_NUMBER: _ClassVar[int]
    CONSUMER_VERSION_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_ID_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_VERSION_FIELD_NUMBER: _ClassVar[int]
    ENVIRONMENT_FIELD_NUMBER: _ClassVar[int]
    REGISTERED_AT_FIELD_NUMBER: _ClassVar[int]
    LAST_VALIDATED_AT_FIELD_NUMBER: _ClassVar[int]
    USED_ENDPOINTS_FIELD_NUMBER: _ClassVar[int]
    consumer_id: str
    consumer_version: str
    schema_id: str
    schema_version: str
    environment: str
    registered_at: int
    last_validated_at: int
    used_endpoints: _containers.RepeatedCompositeFieldContainer[EndpointUsage]
    def __init__(self, consumer_id: _Optional[str] = ..., consumer_version: _Optional[str] = ..., schema_id: _Optional[str] = ..., schema_version: _Optional[str] = ..., environment: _Optional[str] = ..., registered_at: _Optional[int] = ..., last_validated_at: _Optional[int] = ..., used_endpoints: _Optional[_Iterable[_Union[EndpointUsage, _Mapping]]] = ...) -> None: ...

class ConsumerImpact(_message.Message):
    __slots__ = ("consumer_id", "consumer_version", "current_schema_version", "environment", "will_break", "relevant_changes", "replay_failures", "replayed_interactions", "observed", "unreached_changes", "omitted_changes")
    CONSUMER_ID_FIELD_NUMBER: _ClassVar[int]
    CONSUMER_VERSION_FIELD_NUMBER: _ClassVar[int]
    CURRENT_SCHEMA_VERSION_FIELD_NUMBER: _ClassVar[int]
    ENVIRONMENT_FIELD_NUMBER: _ClassVar[int]
    WILL_BREAK_FIELD_NUMBER: _ClassVar[int]
    RELEVANT_CHANGES_FIELD_NUMBER: _ClassVar[int]
    REPLAY_FAILURES_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_INTERACTIONS_FIELD_NUMBER: _ClassVar[int]
    OBSERVED_FIELD_NUMBER: _ClassVar[int]
    UNREACHED_CHANGES_FIELD_NUMBER: _ClassVar[int]
    OMITTED_CHANGES_FIELD_NUMBER: _ClassVar[int]
    consumer_id: str
    consumer_version: str
    current_schema_version: str
    environment: str
    will_break: bool
    relevant_changes: _containers.RepeatedCompositeFieldContainer[BreakingChange]
    replay_failures: _containers.RepeatedCompositeFieldContainer[ReplayEvidence]
    replayed_interactions: int
    observed: bool
    unreached_changes: _containers.RepeatedCompositeFieldContainer[BreakingChange]
    omitted_changes: int
    def __init__(self, consumer_id: _Optional[str] = ..., consumer_version: _Optional[str] = ..., current_schema_version: _Optional[str] = ..., environment: _Optional[str] = ..., will_break: _Optional[bool] = ..., relevant_changes: _Optional[_Iterable[_Union[BreakingChange, _Mapping]]] = ..., replay_failures: _Optional[_Iterable[_Union[ReplayEvidence, _Mapping]]] = ..., replayed_interactions: _Optional[int] = ..., observed: _Optional[bool] = ..., unreached_changes: _Optional[_Iterable[_Union[BreakingChange, _Mapping]]] = ..., omitted_changes: _Optional[int] = ...) -> None: ...

class ReplayEvidence(_message.Message):
    __slots__ = ("method", "path", "status_code", "errors", "recorded_at")
    METHOD_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    STATUS_CODE_FIELD_NUMBER: _ClassVar[int]
    ERRORS_FIELD_NUMBER: _ClassVar[int]
    RECORDED_AT_FIELD_NUMBER: _ClassVar[int]
    method: str
    path: str
    status_code: int
    errors: _containers.RepeatedScalarFieldContainer[str]
    recorded_at: int
    def __init__(self, method: _Optional[str] = ..., path: _Optional[str] = ..., status_code: _Optional[int] = ..., errors: _Optional[_Iterable[str]] = ..., recorded_at: _Optional[int] = ...) -> None: ...

class GeneratedRequest(_message.Message):
    __slots__ = ("method", "path", "headers", "body")
    class HeadersEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    METHOD_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    HEADERS_FIELD_NUMBER: _ClassVar[int]
    BODY_FIELD_NUMBER: _ClassVar[int]
    method: str
    path: str
    headers: _containers.ScalarMap[str, str]
    body: str
    def __init__(self, method: _Optional[str] = ..., path: _Optional[str] = ..., headers: _Optional[_Mapping[str, str]] = ..., body: _Optional[str] = ...) -> None: ...

class GeneratedResponse(_message.Message):
    __slots__ = ("status_code", "headers", "body")
    class HeadersEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    STATUS_CODE_FIELD_NUMBER: _ClassVar[int]
    HEADERS_FIELD_NUMBER: _ClassVar[int]
    BODY_FIELD_NUMBER: _ClassVar[int]
    status_code: int
    headers: _containers.ScalarMap[str, str]
    body: str
    def __init__(self, status_code: _Optional[int] = ..., headers: _Optional[_Mapping[str, str]] = ..., body: _Optional[str] = ...) -> None: ...

class GeneratedFixture(_message.Message):
    __slots__ = ("request", "response")
    REQUEST_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_FIELD_NUMBER: _ClassVar[int]
    request: GeneratedRequest
    response: GeneratedResponse
    def __init__(self, request: _Optional[_Union[GeneratedRequest, _Mapping]] = ..., response: _Optional[_Union[GeneratedResponse, _Mapping]] = ...) -> None: ...

class EndpointInfo(_message.Message):
    __slots__ = ("method", "path", "operation_id", "summary")
    METHOD_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    OPERATION_ID_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    method: str
    path: str
    operation_id: str
    summary: str
    def __init__(self, method: _Optional[str] = ..., path: _Optional[str] = ..., operation_id: _Optional[str] = ..., summary: _Optional[str] = ...) -> None: ...

class RegisterSchemaRequest(_message.Message):
    __slots__ = ("schema_id", "schema_content", "schema_version", "ownership", "check_compatibility", "refuse_breaking_changes", "dry_run")
    SCHEMA_ID_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_CONTENT_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_VERSION_FIELD_NUMBER: _ClassVar[int]
    OWNERSHIP_FIELD_NUMBER: _ClassVar[int]
    CHECK_COMPATIBILITY_FIELD_NUMBER: _ClassVar[int]
    REFUSE_BREAKING_CHANGES_FIELD_NUMBER: _ClassVar[int]
    DRY_RUN_FIELD_NUMBER: _ClassVar[int]
    schema_id: str
    schema_content: str
    schema_version: str
    ownership: SchemaOwnership
    check_compatibility: bool
    refuse_breaking_changes: bool
    dry_run: bool
    def __init__(self, schema_id: _Optional[str] = ..., schema_content: _Optional[str] = ..., schema_version: _Optional[str] = ..., ownership: _Optional[_Union[SchemaOwnership, _Mapping]] = ..., check_compatibility: _Optional[bool] = ..., refuse_breaking_changes: _Optional[bool] = ..., dry_run: _Optional[bool] = ...) -> None: ...

class RegisterSchemaResponse(_message.Message):
    __slots__ = ("success", "message", "metadata", "breaking_changes", "warnings")
    SUCCESS_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    BREAKING_CHANGES_FIELD_NUMBER: _ClassVar[int]
    WARNINGS_FIELD_NUMBER: _ClassVar[int]
    success: bool
    message: str
    metadata: SchemaMetadata
    breaking_changes: _containers.RepeatedCompositeFieldContainer[BreakingChange]
    warnings: _containers.RepeatedCompositeFieldContainer[RegistrationWarning]
    def __init__(self, success: _Optional[bool] = ..., message: _Optional[str] = ..., metadata: _Optional[_Union[SchemaMetadata, _Mapping]] = ..., breaking_changes: _Optional[_Iterable[_Union[BreakingChange, _Mapping]]] = ..., warnings: _Optional[_Iterable[_Union[RegistrationWarning, _Mapping]]] = ...) -> None: ...

class RegistrationWarning(_message.Message):
    __slots__ = ("code", "pointer", "message")
    CODE_FIELD_NUMBER: _ClassVar[int]
    POINTER_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    code: str
    pointer: str
    message: str
    def __init__(self, code: _Optional[str] = ..., pointer: _Optional[str] = ..., message: _Optional[str] = ...) -> None: ...

class GetSchemaRequest(_message.Message):
    __slots__ = ("schema_id", "schema_version")
    SCHEMA_ID_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_VERSION_FIELD_NUMBER: _ClassVar[int]
    schema_id: str
    schema_version: str
    def __init__(self, schema_id: _Optional[str] = ..., schema_version: _Optional[str] = ...) -> None: ...

class GetSchemaResponse(_message.Message):
    __slots__ = ("found", "metadata", "schema_content")
    FOUND_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_CONTENT_FIELD_NUMBER: _ClassVar[int]
    found: bool
    metadata: SchemaMetadata
    schema_content: str
    def __init__(self, found: _Optional[bool] = ..., metadata: _Optional[_Union[SchemaMetadata, _Mapping]] = ..., schema_content: _Optional[str] = ...) -> None: ...

class ListSchemasRequest(_message.Message):
    __slots__ = ("page_size", "page_token", "owner", "team")
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    TEAM_FIELD_NUMBER: _ClassVar[int]
    page_size: int
    page_token: str
    owner: str
    team: str
    def __init__(self, page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., owner: _Optional[str] = ..., team: _Optional[str] = ...) -> None: ...

class ListSchemasResponse(_message.Message):
    __slots__ = ("schemas", "next_page_token", "total_count")
    SCHEMAS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOTAL_COUNT_FIELD_NUMBER: _ClassVar[int]
    schemas: _containers.RepeatedCompositeFieldContainer[SchemaMetadata]
    next_page_token: str
    total_count: int
    def __init__(self, schemas: _Optional[_Iterable[_Union[SchemaMetadata, _Mapping]]] = ..., next_page_token: _Optional[str] = ..., total_count: _Optional[int] = ...) -> None: ...

class ListEndpointsRequest(_message.Message):
    __slots__ = ("schema_id", "schema_version")
    SCHEMA_ID_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_VERSION_FIELD_NUMBER: _ClassVar[int]
    schema_id: str
    schema_version: str
    def __init__(self, schema_id: _Optional[str] = ..., schema_version: _Optional[str] = ...) -> None: ...

class ListEndpointsResponse(_message.Message):
    __slots__ = ("endpoints",)
    ENDPOINTS_FIELD_NUMBER: _ClassVar[int]
    endpoints: _containers.RepeatedCompositeFieldContainer[EndpointInfo]
    def __init__(self, endpoints: _Optional[_Iterable[_Union[EndpointInfo, _Mapping]]] = ...) -> None: ...

class InteractionRequest(_message.Message):
    __slots__ = ("schema_id", "request", "response", "schema_version", "correlation_id")
    SCHEMA_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_VERSION_FIELD_NUMBER: _ClassVar[int]
    CORRELATION_ID_FIELD_NUMBER: _ClassVar[int]
    schema_id: str
    request: RequestData
    response: ResponseData
    schema_version: str
    correlation_id: str
    def __init__(self, schema_id: _Optional[str] = ..., request: _Optional[_Union[RequestData, _Mapping]] = ..., response: _Optional[_Union[ResponseData, _Mapping]] = ..., schema_version: _Optional[str] = ..., correlation_id: _Optional[str] = ...) -> None: ...

class ValidateProducerRequest(_message.Message):
    __slots__ = ("schema_id", "schema_version", "method", "path", "response", "request")
    SCHEMA_ID_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_VERSION_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_FIELD_NUMBER: _ClassVar[int]
    REQUEST_FIELD_NUMBER: _ClassVar[int]
    schema_id: str
    schema_version: str
    method: str
    path: str
    response: ResponseData
    request: RequestData
    def __init__(self, schema_id: _Optional[str] = ..., schema_version: _Optional[str] = ..., method: _Optional[str] = ..., path: _Optional[str] = ..., response: _Optional[_Union[ResponseData, _Mapping]] = ..., request: _Optional[_Union[RequestData, _Mapping]] = ...) -> None: ...

class CompareSchemasRequest(_message.Message):
    __slots__ = ("schema_id", "old_version", "new_version", "new_content")
    SCHEMA_ID_FIELD_NUMBER: _ClassVar[int]
    OLD_VERSION_FIELD_NUMBER: _ClassVar[int]
    NEW_VERSION_FIELD_NUMBER: _ClassVar[int]
    NEW_CONTENT_FIELD_NUMBER: _ClassVar[int]
    schema_id: str
    old_version: str
    new_version: str
    new_content: str
    def __init__(self, schema_id: _Optional[str] = ..., old_version: _Optional[str] = ..., new_version: _Optional[str] = ..., new_content: _Optional[str] = ...) -> None: ...

class CompareSchemasResponse(_message.Message):
    __slots__ = ("compatible", "breaking_changes", "old_schema", "new_schema", "message")
    COMPATIBLE_FIELD_NUMBER: _ClassVar[int]
    BREAKING_CHANGES_FIELD_NUMBER: _ClassVar[int]
    OLD_SCHEMA_FIELD_NUMBER: _ClassVar[int]
    NEW_SCHEMA_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    compatible: bool
    breaking_changes: _containers.RepeatedCompositeFieldContainer[BreakingChange]
    old_schema: SchemaMetadata
    new_schema: SchemaMetadata
    message: str
    def __init__(self, compatible: _Optional[bool] = ..., breaking_changes: _Optional[_Iterable[_Union[BreakingChange, _Mapping]]] = ..., old_schema: _Optional[_Union[SchemaMetadata, _Mapping]] = ..., new_schema: _Optional[_Union[SchemaMetadata, _Mapping]] = ..., message: _Optional[str] = ...) -> None: ...

class GenerateFixtureRequest(_message.Message):
    __slots__ = ("schema_id", "method", "path", "status_code", "use_examples", "content_type", "output_type", "schema_version")
    SCHEMA_ID_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    STATUS_CODE_FIELD_NUMBER: _ClassVar[int]
    USE_EXAMPLES_FIELD_NUMBER: _ClassVar[int]
    CONTENT_TYPE_FIELD_NUMBER: _ClassVar[int]
    OUTPUT_TYPE_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_VERSION_FIELD_NUMBER: _ClassVar[int]
    schema_id: str
    method: str
    path: str
    status_code: int
    use_examples: bool
    content_type: str
    output_type: OutputType
    schema_version: str
    def __init__(self, schema_id: _Optional[str] = ..., method: _Optional[str] = ..., path: _Optional[str] = ..., status_code: _Optional[int] = ..., use_examples: _Optional[bool] = ..., content_type: _Optional[str] = ..., output_type: _Optional[_Union[OutputType, str]] = ..., schema_version: _Optional[str] = ...) -> None: ...

class GenerateFixtureResponse(_message.Message):
    __slots__ = ("success", "message", "fixture", "request_body", "response")
    SUCCESS_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    FIXTURE_FIELD_NUMBER: _ClassVar[int]
    REQUEST_BODY_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_FIELD_NUMBER: _ClassVar[int]
    success: bool
    message: str
    fixture: GeneratedFixture
    request_body: str
    response: GeneratedResponse
    def __init__(self, success: _Optional[bool] = ..., message: _Optional[str] = ..., fixture: _Optional[_Union[GeneratedFixture, _Mapping]] = ..., request_body: _Optional[str] = ..., response: _Optional[_Union[GeneratedResponse, _Mapping]] = ...) -> None: ...

class RegisterConsumerRequest(_message.Message):
    __slots__ = ("consumer_id", "consumer_version", "schema_id", "schema_version", "environment", "used_endpoints")
    CONSUMER_ID_FIELD_NUMBER: _ClassVar[int]
    CONSUMER_VERSION_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_ID_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_VERSION_FIELD_NUMBER: _ClassVar[int]
    ENVIRONMENT_FIELD_NUMBER: _ClassVar[int]
    USED_ENDPOINTS_FIELD_NUMBER: _ClassVar[int]
    consumer_id: str
    consumer_version: str
    schema_id: str
    schema_version: str
    environment: str
    used_endpoints: _containers.RepeatedCompositeFieldContainer[EndpointUsage]
    def __init__(self, consumer_id: _Optional[str] = ..., consumer_version: _Optional[str] = ..., schema_id: _Optional[str] = ..., schema_version: _Optional[str] = ..., environment: _Optional[str] = ..., used_endpoints: _Optional[_Iterable[_Union[EndpointUsage, _Mapping]]] = ...) -> None: ...

class RegisterConsumerResponse(_message.Message):
    __slots__ = ("success", "message", "consumer")
    SUCCESS_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    CONSUMER_FIELD_NUMBER: _ClassVar[int]
    success: bool
    message: str
    consumer: ConsumerInfo
    def __init__(self, success: _Optional[bool] = ..., message: _Optional[str] = ..., consumer: _Optional[_Union[ConsumerInfo, _Mapping]] = ...) -> None: ...

class ListConsumersRequest(_message.Message):
    __slots__ = ("schema_id", "environment")
    SCHEMA_ID_FIELD_NUMBER: _ClassVar[int]
    ENVIRONMENT_FIELD_NUMBER: _ClassVar[int]
    schema_id: str
    environment: str
    def __init__(self, schema_id: _Optional[str] = ..., environment: _Optional[str] = ...) -> None: ...

class ListConsumersResponse(_message.Message):
    __slots__ = ("consumers",)
    CONSUMERS_FIELD_NUMBER: _ClassVar[int]
    consumers: _containers.RepeatedCompositeFieldContainer[ConsumerInfo]
    def __init__(self, consumers: _Optional[_Iterable[_Union[ConsumerInfo, _Mapping]]] = ...) -> None: ...

class DeregisterConsumerRequest(_message.Message):
    __slots__ = ("consumer_id", "schema_id", "environment")
    CONSUMER_ID_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_ID_FIELD_NUMBER: _ClassVar[int]
    ENVIRONMENT_FIELD_NUMBER: _ClassVar[int]
    consumer_id: str
    schema_id: str
    environment: str
    def __init__(self, consumer_id: _Optional[str] = ..., schema_id: _Optional[str] = ..., environment: _Optional[str] = ...) -> None: ...

class DeregisterConsumerResponse(_message.Message):
    __slots__ = ("success", "message")
    SUCCESS_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    success: bool
    message: str
    def __init__(self, success: _Optional[bool] = ..., message: _Optional[str] = ...) -> None: ...

class CanIDeployRequest(_message.Message):
    __slots__ = ("schema_id", "new_version", "environment", "candidate_content", "fail_if_no_consumers", "include_observed", "field_level_impact", "skip_replay")
    SCHEMA_ID_FIELD_NUMBER: _ClassVar[int]
    NEW_VERSION_FIELD_NUMBER: _ClassVar[int]
    ENVIRONMENT_FIELD_NUMBER: _ClassVar[int]
    CANDIDATE_CONTENT_FIELD_NUMBER: _ClassVar[int]
    FAIL_IF_NO_CONSUMERS_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_OBSERVED_FIELD_NUMBER: _ClassVar[int]
    FIELD_LEVEL_IMPACT_FIELD_NUMBER: _ClassVar[int]
    SKIP_REPLAY_FIELD_NUMBER: _ClassVar[int]
    schema_id: str
    new_version: str
    environment: str
    candidate_content: str
    fail_if_no_consumers: bool
    include_observed: bool
    field_level_impact: bool
    skip_replay: bool
    def __init__(self, schema_id: _Optional[str] = ..., new_version: _Optional[str] = ..., environment: _Optional[str] = ..., candidate_content: _Optional[str] = ..., fail_if_no_consumers: _Optional[bool] = ..., include_observed: _Optional[bool] = ..., field_level_impact: _Optional[bool] = ..., skip_replay: _Optional[bool] = ...) -> None: ...

class CanIDeployResponse(_message.Message):
    __slots__ = ("safe_to_deploy", "summary", "breaking_changes", "affected_consumers", "compared_with_version", "compared_with", "checked_version", "replayed_interactions")
    SAFE_TO_DEPLOY_FIELD_NUMBER: _ClassVar[int]
    SUMMARY_FIELD_NUMBER: _ClassVar[int]
    BREAKING_CHANGES_FIELD_NUMBER: _ClassVar[int]
    AFFECTED_CONSUMERS_FIELD_NUMBER: _ClassVar[int]
    COMPARED_WITH_VERSION_FIELD_NUMBER: _ClassVar[int]
    COMPARED_WITH_FIELD_NUMBER: _ClassVar[int]
    CHECKED_VERSION_FIELD_NUMBER: _ClassVar[int]
    REPLAYED_INTERACTIONS_FIELD_NUMBER: _ClassVar[int]
    safe_to_deploy: bool
    summary: str
    breaking_changes: _containers.RepeatedCompositeFieldContainer[BreakingChange]
    affected_consumers: _containers.RepeatedCompositeFieldContainer[ConsumerImpact]
    compared_with_version: str
    compared_with: str
    checked_version: str
    replayed_interactions: int
    def __init__(self, safe_to_deploy: _Optional[bool] = ..., summary: _Optional[str] = ..., breaking_changes: _Optional[_Iterable[_Union[BreakingChange, _Mapping]]] = ..., affected_consumers: _Optional[_Iterable[_Union[ConsumerImpact, _Mapping]]] = ..., compared_with_version: _Optional[str] = ..., compared_with: _Optional[str] = ..., checked_version: _Optional[str] = ..., replayed_interactions: _Optional[int] = ...) -> None: ...

class EnvironmentInfo(_message.Message):
    __slots__ = ("name", "description", "built_in", "created_at", "origin")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    BUILT_IN_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    ORIGIN_FIELD_NUMBER: _ClassVar[int]
    name: str
    description: str
    built_in: bool
    created_at: int
    origin: str
    def __init__(self, name: _Optional[str] = ..., description: _Optional[str] = ..., built_in: _Optional[bool] = ..., created_at: _Optional[int] = ..., origin: _Optional[str] = ...) -> None: ...

class CreateEnvironmentRequest(_message.Message):
    __slots__ = ("name", "description")
    NAME_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    name: str
    description: str
    def __init__(self, name: _Optional[str] = ..., description: _Optional[str] = ...) -> None: ...

class CreateEnvironmentResponse(_message.Message):
    __slots__ = ("success", "message", "environment")
    SUCCESS_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    ENVIRONMENT_FIELD_NUMBER: _ClassVar[int]
    success: bool
    message: str
    environment: EnvironmentInfo
    def __init__(self, success: _Optional[bool] = ..., message: _Optional[str] = ..., environment: _Optional[_Union[EnvironmentInfo, _Mapping]] = ...) -> None: ...

class ListEnvironmentsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListEnvironmentsResponse(_message.Message):
    __slots__ = ("environments",)
    ENVIRONMENTS_FIELD_NUMBER: _ClassVar[int]
    environments: _containers.RepeatedCompositeFieldContainer[EnvironmentInfo]
    def __init__(self, environments: _Optional[_Iterable[_Union[EnvironmentInfo, _Mapping]]] = ...) -> None: ...

class DeleteEnvironmentRequest(_message.Message):
    __slots__ = ("name",)
    NAME_FIELD_NUMBER: _ClassVar[int]
    name: str
    def __init__(self, name: _Optional[str] = ...) -> None: ...

class DeleteEnvironmentResponse(_message.Message):
    __slots__ = ("success", "message")
    SUCCESS_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    success: bool
    message: str
    def __init__(self, success: _Optional[bool] = ..., message: _Optional[str] = ...) -> None: ...

class DeploymentInfo(_message.Message):
    __slots__ = ("schema_id", "environment", "consumer_id", "version", "action", "recorded_at", "recorded_by", "schema_version")
    SCHEMA_ID_FIELD_NUMBER: _ClassVar[int]
    ENVIRONMENT_FIELD_NUMBER: _ClassVar[int]
    CONSUMER_ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    RECORDED_AT_FIELD_NUMBER: _ClassVar[int]
    RECORDED_BY_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_VERSION_FIELD_NUMBER: _ClassVar[int]
    schema_id: str
    environment: str
    consumer_id: str
    version: str
    action: str
    recorded_at: int
    recorded_by: str
    schema_version: str
    def __init__(self, schema_id: _Optional[str] = ..., environment: _Optional[str] = ..., consumer_id: _Optional[str] = ..., version: _Optional[str] = ..., action: _Optional[str] = ..., recorded_at: _Optional[int] = ..., recorded_by: _Optional[str] = ..., schema_version: _Optional[str] = ...) -> None: ...

class RecordDeploymentRequest(_message.Message):
    __slots__ = ("schema_id", "version", "environment", "consumer_id")
    SCHEMA_ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    ENVIRONMENT_FIELD_NUMBER: _ClassVar[int]
    CONSUMER_ID_FIELD_NUMBER: _ClassVar[int]
    schema_id: str
    version: str
    environment: str
    consumer_id: str
    def __init__(self, schema_id: _Optional[str] = ..., version: _Optional[str] = ..., environment: _Optional[str] = ..., consumer_id: _Optional[str] = ...) -> None: ...

class RecordDeploymentResponse(_message.Message):
    __slots__ = ("success", "message", "deployment", "replaced_version")
    SUCCESS_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    DEPLOYMENT_FIELD_NUMBER: _ClassVar[int]
    REPLACED_VERSION_FIELD_NUMBER: _ClassVar[int]
    success: bool
    message: str
    deployment: DeploymentInfo
    replaced_version: str
    def __init__(self, success: _Optional[bool] = ..., message: _Optional[str] = ..., deployment: _Optional[_Union[DeploymentInfo, _Mapping]] = ..., replaced_version: _Optional[str] = ...) -> None: ...

class RecordUndeploymentRequest(_message.Message):
    __slots__ = ("schema_id", "environment", "consumer_id")
    SCHEMA_ID_FIELD_NUMBER: _ClassVar[int]
    ENVIRONMENT_FIELD_NUMBER: _ClassVar[int]
    CONSUMER_ID_FIELD_NUMBER: _ClassVar[int]
    schema_id: str
    environment: str
    consumer_id: str
    def __init__(self, schema_id: _Optional[str] = ..., environment: _Optional[str] = ..., consumer_id: _Optional[str] = ...) -> None: ...

class RecordUndeploymentResponse(_message.Message):
    __slots__ = ("success", "message", "deployment")
    SUCCESS_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    DEPLOYMENT_FIELD_NUMBER: _ClassVar[int]
    success: bool
    message: str
    deployment: DeploymentInfo
    def __init__(self, success: _Optional[bool] = ..., message: _Optional[str] = ..., deployment: _Optional[_Union[DeploymentInfo, _Mapping]] = ...) -> None: ...

class ListDeploymentsRequest(_message.Message):
    __slots__ = ("schema_id", "environment", "limit")
    SCHEMA_ID_FIELD_NUMBER: _ClassVar[int]
    ENVIRONMENT_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    schema_id: str
    environment: str
    limit: int
    def __init__(self, schema_id: _Optional[str] = ..., environment: _Optional[str] = ..., limit: _Optional[int] = ...) -> None: ...

class ListDeploymentsResponse(_message.Message):
    __slots__ = ("current", "history")
    CURRENT_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    current: _containers.RepeatedCompositeFieldContainer[DeploymentInfo]
    history: _containers.RepeatedCompositeFieldContainer[DeploymentInfo]
    def __init__(self, current: _Optional[_Iterable[_Union[DeploymentInfo, _Mapping]]] = ..., history: _Optional[_Iterable[_Union[DeploymentInfo, _Mapping]]] = ...) -> None: ...

class RecordedInteraction(_message.Message):
    __slots__ = ("schema_id", "schema_version", "environment", "consumer_id", "request", "response", "valid", "read_fields", "read_fields_tracked")
    SCHEMA_ID_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_VERSION_FIELD_NUMBER: _ClassVar[int]
    ENVIRONMENT_FIELD_NUMBER: _ClassVar[int]
    CONSUMER_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_FIELD_NUMBER: _ClassVar[int]
    VALID_FIELD_NUMBER: _ClassVar[int]
    READ_FIELDS_FIELD_NUMBER: _ClassVar[int]
    READ_FIELDS_TRACKED_FIELD_NUMBER: _ClassVar[int]
    schema_id: str
    schema_version: str
    environment: str
    consumer_id: str
    request: RequestData
    response: ResponseData
    valid: bool
    read_fields: _containers.RepeatedScalarFieldContainer[str]
    read_fields_tracked: bool
    def __init__(self, schema_id: _Optional[str] = ..., schema_version: _Optional[str] = ..., environment: _Optional[str] = ..., consumer_id: _Optional[str] = ..., request: _Optional[_Union[RequestData, _Mapping]] = ..., response: _Optional[_Union[ResponseData, _Mapping]] = ..., valid: _Optional[bool] = ..., read_fields: _Optional[_Iterable[str]] = ..., read_fields_tracked: _Optional[bool] = ...) -> None: ...

class RecordInteractionsResponse(_message.Message):
    __slots__ = ("accepted", "dropped", "message")
    ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    DROPPED_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    accepted: int
    dropped: int
    message: str
    def __init__(self, accepted: _Optional[int] = ..., dropped: _Optional[int] = ..., message: _Optional[str] = ...) -> None: ...

class GetCoverageRequest(_message.Message):
    __slots__ = ("schema_id", "schema_version", "environment")
    SCHEMA_ID_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_VERSION_FIELD_NUMBER: _ClassVar[int]
    ENVIRONMENT_FIELD_NUMBER: _ClassVar[int]
    schema_id: str
    schema_version: str
    environment: str
    def __init__(self, schema_id: _Optional[str] = ..., schema_version: _Optional[str] = ..., environment: _Optional[str] = ...) -> None: ...

class CoverageConsumer(_message.Message):
    __slots__ = ("consumer_id", "call_count", "last_seen", "environment")
    CONSUMER_ID_FIELD_NUMBER: _ClassVar[int]
    CALL_COUNT_FIELD_NUMBER: _ClassVar[int]
    LAST_SEEN_FIELD_NUMBER: _ClassVar[int]
    ENVIRONMENT_FIELD_NUMBER: _ClassVar[int]
    consumer_id: str
    call_count: int
    last_seen: int
    environment: str
    def __init__(self, consumer_id: _Optional[str] = ..., call_count: _Optional[int] = ..., last_seen: _Optional[int] = ..., environment: _Optional[str] = ...) -> None: ...

class StatusCoverage(_message.Message):
    __slots__ = ("status", "documented", "call_count", "last_seen", "consumers")
    STATUS_FIELD_NUMBER: _ClassVar[int]
    DOCUMENTED_FIELD_NUMBER: _ClassVar[int]
    CALL_COUNT_FIELD_NUMBER: _ClassVar[int]
    LAST_SEEN_FIELD_NUMBER: _ClassVar[int]
    CONSUMERS_FIELD_NUMBER: _ClassVar[int]
    status: str
    documented: bool
    call_count: int
    last_seen: int
    consumers: _containers.RepeatedCompositeFieldContainer[CoverageConsumer]
    def __init__(self, status: _Optional[str] = ..., documented: _Optional[bool] = ..., call_count: _Optional[int] = ..., last_seen: _Optional[int] = ..., consumers: _Optional[_Iterable[_Union[CoverageConsumer, _Mapping]]] = ...) -> None: ...

class OperationCoverage(_message.Message):
    __slots__ = ("method", "path", "operation_id", "call_count", "statuses")
    METHOD_FIELD_NUMBER: _ClassVar[int]
    PATH_FIELD_NUMBER: _ClassVar[int]
    OPERATION_ID_FIELD_NUMBER: _ClassVar[int]
    CALL_COUNT_FIELD_NUMBER: _ClassVar[int]
    STATUSES_FIELD_NUMBER: _ClassVar[int]
    method: str
    path: str
    operation_id: str
    call_count: int
    statuses: _containers.RepeatedCompositeFieldContainer[StatusCoverage]
    def __init__(self, method: _Optional[str] = ..., path: _Optional[str] = ..., operation_id: _Optional[str] = ..., call_count: _Optional[int] = ..., statuses: _Optional[_Iterable[_Union[StatusCoverage, _Mapping]]] = ...) -> None: ...

class GetCoverageResponse(_message.Message):
    __slots__ = ("schema_id", "schema_version", "environment", "operations", "exercised_statuses", "documented_statuses", "coverage_percent", "consumers")
    SCHEMA_ID_FIELD_NUMBER: _ClassVar[int]
    SCHEMA_VERSION_FIELD_NUMBER: _ClassVar[int]
    ENVIRONMENT_FIELD_NUMBER: _ClassVar[int]
    OPERATIONS_FIELD_NUMBER: _ClassVar[int]
    EXERCISED_STATUSES_FIELD_NUMBER: _ClassVar[int]
    DOCUMENTED_STATUSES_FIELD_NUMBER: _ClassVar[int]
    COVERAGE_PERCENT_FIELD_NUMBER: _ClassVar[int]
    CONSUMERS_FIELD_NUMBER: _ClassVar[int]
    schema_id: str
    schema_version: str
    environment: str
    operations: _containers.RepeatedCompositeFieldContainer[OperationCoverage]
    exercised_statuses: int
    documented_statuses: int
    coverage_percent: float
    consumers: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, schema_id: _Optional[str] = ..., schema_version: _Optional[str] = ..., environment: _Optional[str] = ..., operations: _Optional[_Iterable[_Union[OperationCoverage, _Mapping]]] = ..., exercised_statuses: _Optional[int] = ..., documented_statuses: _Optional[int] = ..., coverage_percent: _Optional[float] = ..., consumers: _Optional[_Iterable[str]] = ...) -> None: ...

class PurgeRecordingsRequest(_message.Message):
    __slots__ = ("schema_id", "consumer_id", "environment")
    SCHEMA_ID_FIELD_NUMBER: _ClassVar[int]
    CONSUMER_ID_FIELD_NUMBER: _ClassVar[int]
    ENVIRONMENT_FIELD_NUMBER: _ClassVar[int]
    schema_id: str
    consumer_id: str
    environment: str
    def __init__(self, schema_id: _Optional[str] = ..., consumer_id: _Optional[str] = ..., environment: _Optional[str] = ...) -> None: ...

class PurgeRecordingsResponse(_message.Message):
    __slots__ = ("success", "removed", "message")
    SUCCESS_FIELD_NUMBER: _ClassVar[int]
    REMOVED_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    success: bool
    removed: int
    message: str
    def __init__(self, success: _Optional[bool] = ..., removed: _Optional[int] = ..., message: _Optional[str] = ...) -> None: ...
