package dev.svc.client;

/** An endpoint of a schema: method, path template as written ({@code /users/{id}}), operationId and summary. */
public record EndpointInfo(String method, String path, String operationId, String summary) {}
