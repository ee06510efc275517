package dev.svc.client.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every example in README.md is a region of a test in this folder (between {@code // readme:start NAME}
 * and {@code // readme:end NAME}); this test fails when the README's copy drifts from the code the
 * tests run.
 */
class ReadmeExamplesTest {
    private static final Pattern EXAMPLE = Pattern.compile(
            "<!-- example: (\\S+) from (\\S+) -->\\s*```java\\n(.*?)```", Pattern.DOTALL);

    @TestFactory
    Stream<DynamicTest> readmeExamplesAreTheTestedCode() throws IOException {
        Path base = Path.of(System.getProperty("basedir", ".")).toAbsolutePath();
        String readme = Files.readString(base.resolve("README.md"));
        Matcher matcher = EXAMPLE.matcher(readme);
        List<DynamicTest> tests = new ArrayList<>();
        while (matcher.find()) {
            String name = matcher.group(1);
            Path source = base.resolve(matcher.group(2));
            String shown = matcher.group(3);
            tests.add(DynamicTest.dynamicTest(name, () -> assertEquals(region(Files.readString(source), name), shown,
                    "README example \"" + name + "\" differs from " + source)));
        }
        assertFalse(tests.isEmpty(), "README.md shows no examples");
        return tests.stream();
    }

    /** The lines between the markers, with their common indentation removed. */
    static String region(String source, String name) {
        List<String> lines = List.of(source.split("\n", -1));
        int start = lines.indexOf(lines.stream().filter(l -> l.trim().equals("// readme:start " + name)).findFirst().orElseThrow());
        int end = lines.indexOf(lines.stream().filter(l -> l.trim().equals("// readme:end " + name)).findFirst().orElseThrow());
        List<String> region = lines.subList(start + 1, end);
        int indent = region.stream().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        StringBuilder text = new StringBuilder();
        for (String line : region) text.append(line.isBlank() ? "" : line.substring(indent)).append('\n');
        return text.toString();
    }
}
