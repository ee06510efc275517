package dev.svc.client.internal;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonParseException;
import com.google.gson.ToNumberPolicy;
import com.google.gson.stream.JsonReader;
import java.io.IOException;
import java.io.StringReader;

/**
 * JSON text to plain Java values and back: objects are {@code Map<String, Object>}, arrays
 * {@code List<Object>}, whole numbers {@code Long}, other numbers {@code Double}. Parsing is bounded
 * in nesting depth, so a hostile body cannot exhaust the stack.
 */
public final class Json {
    /** Deepest nesting parsed; deeper documents are treated as text. */
    public static final int MAX_NESTING_DEPTH = 255;

    private static final Gson GSON = new GsonBuilder()
            .serializeNulls()
            .disableHtmlEscaping()
            .setObjectToNumberStrategy(ToNumberPolicy.LONG_OR_DOUBLE)
            .create();

    private Json() {}

    /** JSON text of a value (maps, lists, strings, numbers, booleans, null, records). */
    public static String encode(Object value) {
        return GSON.toJson(value);
    }

    /** The value of JSON text; empty text is null; text that is not JSON is returned as it is. */
    public static Object parseOrText(String text) {
        if (text == null || text.isEmpty()) return null;
        try {
            return parse(text);
        } catch (JsonParseException | IOException | IllegalStateException e) {
            return text;
        }
    }

    /** The value of JSON text; throws when it is not one complete JSON value. */
    public static Object parse(String text) throws IOException {
        try (JsonReader reader = new JsonReader(new StringReader(text))) {
            reader.setNestingLimit(MAX_NESTING_DEPTH);
            reader.setStrictness(com.google.gson.Strictness.STRICT);
            Object value = GSON.fromJson(reader, Object.class);
            if (reader.peek() != com.google.gson.stream.JsonToken.END_DOCUMENT) {
                throw new JsonParseException("trailing content after the JSON value");
            }
            return value;
        }
    }
}
