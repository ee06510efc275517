package dev.svc.client;

/** A request and the response it got: what {@code validateMany} and consumer registration take. */
public interface Interaction {
    ValidationRequest request();

    ValidationResponse response();

    static Interaction of(ValidationRequest request, ValidationResponse response) {
        return new InteractionPair(request, response);
    }
}
