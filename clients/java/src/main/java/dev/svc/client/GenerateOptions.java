package dev.svc.client;

/**
 * Options of fixture generation.
 *
 * @param statusCode response status to generate; 0 for the first success status of the operation
 * @param useExamples use the schema's examples when they are valid
 * @param contentType null for {@code application/json}
 * @param target schema, version and deadline of the call
 */
public record GenerateOptions(int statusCode, boolean useExamples, String contentType, RequestOptions target) {
    public static final GenerateOptions DEFAULTS = new GenerateOptions(0, true, null, RequestOptions.DEFAULTS);

    public GenerateOptions {
        target = target == null ? RequestOptions.DEFAULTS : target;
    }

    public GenerateOptions withStatusCode(int value) {
        return new GenerateOptions(value, useExamples, contentType, target);
    }

    public GenerateOptions withUseExamples(boolean value) {
        return new GenerateOptions(statusCode, value, contentType, target);
    }

    public GenerateOptions withContentType(String value) {
        return new GenerateOptions(statusCode, useExamples, value, target);
    }

    public GenerateOptions withTarget(RequestOptions value) {
        return new GenerateOptions(statusCode, useExamples, contentType, value);
    }
}
