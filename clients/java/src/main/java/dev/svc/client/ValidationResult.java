package dev.svc.client;

import java.util.List;

/**
 * The answer of a validation. A contract violation is {@code valid == false} with the messages in
 * {@code errors}; it is never an exception.
 */
public record ValidationResult(boolean valid, List<String> errors, String validatedAgainstVersion, String validatedAgainstHash) {
    public ValidationResult {
        errors = List.copyOf(errors);
    }
}
