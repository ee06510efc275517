package dev.svc.client;

/** A request/response pair generated from the schema. */
public record GeneratedFixture(GeneratedRequest request, GeneratedResponse response) {}
