package dev.svc.client.servlet;

import java.util.List;

/**
 * A contract violation the filter found, as handed to the violation callback.
 *
 * @param path the real path with its query string
 * @param statusCode the response status; null for a request rejected before the servlet ran
 */
public record ContractViolation(
        ValidationMode mode,
        ViolationPhase phase,
        String schemaId,
        String method,
        String path,
        Integer statusCode,
        List<String> errors,
        String validatedAgainstVersion) {

    public ContractViolation {
        errors = List.copyOf(errors);
    }
}
