package dev.svc.client;

import java.util.List;

/** One page of {@code listSchemas}; pass {@code nextPageToken} for the next one (empty on the last page). */
public record SchemaPage(List<SchemaMetadata> schemas, String nextPageToken, int totalCount) {
    public SchemaPage {
        schemas = List.copyOf(schemas);
    }
}
