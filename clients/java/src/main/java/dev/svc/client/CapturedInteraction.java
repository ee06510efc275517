package dev.svc.client;

import java.util.Objects;
import java.util.Optional;

/**
 * An HTTP exchange recorded by a capture adapter.
 *
 * @param validation the result when the adapter validated the exchange ({@code autoValidate}), else null
 */
public record CapturedInteraction(ValidationRequest request, ValidationResponse response, ValidationResult validation)
        implements Interaction {

    public CapturedInteraction {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(response, "response");
    }

    public Optional<ValidationResult> validationResult() {
        return Optional.ofNullable(validation);
    }

    public CapturedInteraction withValidation(ValidationResult result) {
        return new CapturedInteraction(request, response, result);
    }
}
