package dev.svc.client.support;

import java.nio.file.Path;

/** The shared conformance suite's folders, which the Java tests use as their documents too. */
public final class Documents {
    private Documents() {}

    public static Path conformanceRoot() {
        return Path.of(System.getProperty("basedir", ".")).toAbsolutePath().resolve("../conformance").normalize();
    }

    public static String document(String name) {
        return conformanceRoot().resolve("documents").resolve(name).toString();
    }
}
