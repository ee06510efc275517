package dev.svc.client;

/** A registered schema: its metadata and the content exactly as it was registered. */
public record SchemaContent(SchemaMetadata metadata, String content) {}
