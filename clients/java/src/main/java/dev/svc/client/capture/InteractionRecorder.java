package dev.svc.client.capture;

import dev.svc.client.CapturedInteraction;
import dev.svc.client.ValidationResult;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;

/**
 * What the capture adapters share: a bounded list of captured interactions and, with
 * {@code autoValidate}, the validation of each one before the adapter hands the response back, so a
 * consumer test sees a contract failure at the call that caused it.
 */
public class InteractionRecorder {
    private final CaptureOptions options;
    private final Deque<CapturedInteraction> interactions = new ArrayDeque<>();

    public InteractionRecorder(CaptureOptions options) {
        this.options = options == null ? CaptureOptions.RECORD_ONLY : options;
    }

    public CaptureOptions options() {
        return options;
    }

    /**
     * Records an interaction and, with autoValidate, validates it. A validator failure (for example
     * UNAVAILABLE) is thrown: a contract test must not pass because nothing was checked.
     */
    public CapturedInteraction record(CapturedInteraction interaction) {
        CapturedInteraction recorded = interaction;
        if (options.autoValidate()) {
            ValidationResult result = options.validator().validate(interaction.request(), interaction.response(), options.target());
            recorded = interaction.withValidation(result);
            if (!result.valid() && options.onValidationFailure() != null) options.onValidationFailure().accept(result, recorded);
        }
        synchronized (interactions) {
            interactions.addLast(recorded);
            while (interactions.size() > options.maxInteractions()) interactions.removeFirst();
        }
        return recorded;
    }

    /** A copy of the interactions captured so far, oldest first. */
    public List<CapturedInteraction> interactions() {
        synchronized (interactions) {
            return List.copyOf(interactions);
        }
    }

    public void clear() {
        synchronized (interactions) {
            interactions.clear();
        }
    }

    /** Content types whose bodies are recorded: JSON and text (not event streams), XML, forms. */
    public static boolean isCapturableContentType(String contentType) {
        if (contentType == null || contentType.isEmpty()) return true;
        String type = contentType.toLowerCase(Locale.ROOT);
        if (type.startsWith("text/event-stream")) return false;
        return type.contains("json") || type.contains("xml") || type.contains("x-www-form-urlencoded") || type.startsWith("text/");
    }
}
