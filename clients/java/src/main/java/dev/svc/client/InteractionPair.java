package dev.svc.client;

import java.util.Objects;

/** A request/response pair assembled by hand. */
public record InteractionPair(ValidationRequest request, ValidationResponse response) implements Interaction {
    public InteractionPair {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(response, "response");
    }
}
