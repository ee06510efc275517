package dev.svc.client;

/** Kinds of breaking change, as the service names them. */
public enum BreakingChangeType {
    BREAKING_CHANGE_UNSPECIFIED,
    ENDPOINT_REMOVED,
    REQUIRED_FIELD_ADDED,
    TYPE_CHANGED,
    REQUIRED_PARAMETER_ADDED,
    RESPONSE_SCHEMA_CHANGED,
    ENUM_VALUE_REMOVED
}
