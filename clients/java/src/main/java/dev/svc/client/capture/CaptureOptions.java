package dev.svc.client.capture;

import dev.svc.client.CapturedInteraction;
import dev.svc.client.ContractValidator;
import dev.svc.client.RequestOptions;
import dev.svc.client.ValidationResult;
import java.util.function.BiConsumer;

/**
 * What the capture adapters do besides recording: validate each interaction as it completes
 * ({@code autoValidate}, needs a validator), report failures, and how much they keep.
 *
 * @param validator needed for {@code autoValidate}; null otherwise
 * @param autoValidate validate each interaction before the response is handed back
 * @param onValidationFailure called for each auto-validated interaction that is not valid; null for none
 * @param target schema and version to validate against; default the validator's bound schema
 * @param maxInteractions oldest interactions are forgotten beyond this count
 * @param maxBodyBytes bodies larger than this are recorded without their body
 */
public record CaptureOptions(
        ContractValidator validator,
        boolean autoValidate,
        BiConsumer<ValidationResult, CapturedInteraction> onValidationFailure,
        RequestOptions target,
        int maxInteractions,
        int maxBodyBytes) {

    public static final int DEFAULT_MAX_INTERACTIONS = 10_000;
    public static final int DEFAULT_MAX_BODY_BYTES = 1024 * 1024; // 1 MiB

    /** Record only. */
    public static final CaptureOptions RECORD_ONLY = new CaptureOptions(null, false, null, RequestOptions.DEFAULTS,
            DEFAULT_MAX_INTERACTIONS, DEFAULT_MAX_BODY_BYTES);

    public CaptureOptions {
        if (autoValidate && validator == null) throw new IllegalArgumentException("autoValidate needs a validator");
        if (maxInteractions <= 0) throw new IllegalArgumentException("maxInteractions must be positive (got " + maxInteractions + ")");
        if (maxBodyBytes <= 0) throw new IllegalArgumentException("maxBodyBytes must be positive (got " + maxBodyBytes + ")");
        target = target == null ? RequestOptions.DEFAULTS : target;
    }

    /** Record, and validate each interaction through {@code validator} as it completes. */
    public static CaptureOptions autoValidate(ContractValidator validator) {
        return new CaptureOptions(validator, true, null, RequestOptions.DEFAULTS, DEFAULT_MAX_INTERACTIONS, DEFAULT_MAX_BODY_BYTES);
    }

    public CaptureOptions onValidationFailure(BiConsumer<ValidationResult, CapturedInteraction> callback) {
        return new CaptureOptions(validator, autoValidate, callback, target, maxInteractions, maxBodyBytes);
    }

    public CaptureOptions withTarget(RequestOptions value) {
        return new CaptureOptions(validator, autoValidate, onValidationFailure, value, maxInteractions, maxBodyBytes);
    }

    public CaptureOptions withLimits(int interactions, int bodyBytes) {
        return new CaptureOptions(validator, autoValidate, onValidationFailure, target, interactions, bodyBytes);
    }
}
