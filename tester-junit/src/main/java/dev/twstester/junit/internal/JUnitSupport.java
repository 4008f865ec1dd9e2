package dev.twstester.junit.internal;

import java.lang.annotation.Annotation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Internal, not API: may change in any release.
 *
 * <p>The JUnit versions the {@code @TwsTest} extension runs on, and the few look-ups it makes with
 * API that JUnit 5.10 already has, so that one build of the extension runs on JUnit 5.10 and later
 * and on JUnit 6. JUnit is {@code provided} for tester-junit: the user's JUnit is the one on the
 * classpath. {@link #requireSupported()} turns an unsupported one into one clear line at start-up.
 */
public final class JUnitSupport {
    /** The oldest JUnit Jupiter the extension runs on. */
    static final int MIN_MAJOR = 5;
    static final int MIN_MINOR = 10;
    /** What the build's consumer project tests; named in the error message. */
    static final String SUPPORTED = "JUnit Jupiter 5.10 or later (5.x and 6.x; tested with 5.10.3, 5.11.4 and 6.1.3)";

    private static final String PROBLEM = problem(versionOf(ExtensionContext.class),
            versionOf("org.junit.jupiter.engine.JupiterTestEngine")).orElse(null);

    private JUnitSupport() {
    }

    /**
     * Fails with one line naming the JUnit found and the versions supported when the JUnit on the
     * classpath cannot run the extension; called when JUnit creates the extension.
     */
    public static void requireSupported() {
        if (PROBLEM != null) {
            throw new ExtensionConfigurationException(PROBLEM);
        }
    }

    /**
     * Why the extension cannot run with this junit-jupiter-api and junit-jupiter-engine version
     * (either may be null: not known), or empty when it can.
     */
    static Optional<String> problem(String apiVersion, String engineVersion) {
        int[] api = majorMinor(apiVersion);
        if (api != null && (api[0] < MIN_MAJOR || (api[0] == MIN_MAJOR && api[1] < MIN_MINOR))) {
            return Optional.of("twstester's @TwsTest needs " + SUPPORTED + ", but junit-jupiter-api " + apiVersion
                    + " is on the test classpath; use a newer JUnit, e.g. import org.junit:junit-bom:5.11.4 (or 6.1.3)"
                    + " in dependencyManagement");
        }
        int[] engine = majorMinor(engineVersion);
        if (api != null && engine != null && (api[0] != engine[0] || api[1] != engine[1])) {
            return Optional.of("junit-jupiter-api " + apiVersion + " and junit-jupiter-engine " + engineVersion
                    + " are both on the test classpath, and JUnit runs only with one version of all its artifacts;"
                    + " import org.junit:junit-bom in dependencyManagement to align them (twstester's @TwsTest needs "
                    + SUPPORTED + ")");
        }
        return Optional.empty();
    }

    /** {@code {major, minor}} of a version such as {@code 5.10.3} or {@code 6.0.0-M1}, or null when it is not one. */
    static int[] majorMinor(String version) {
        if (version == null) {
            return null;
        }
        String[] parts = version.trim().split("[.-]", 3);
        if (parts.length < 2) {
            return null;
        }
        try {
            return new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts[1])};
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String versionOf(String className) {
        try {
            return versionOf(Class.forName(className, false, JUnitSupport.class.getClassLoader()));
        } catch (ClassNotFoundException | LinkageError e) {
            return null;
        }
    }

    /** The Implementation-Version of the jar {@code c} came from (JUnit's jars carry one), or null. */
    private static String versionOf(Class<?> c) {
        Package p = c.getPackage();
        return p == null ? null : p.getImplementationVersion();
    }

    /**
     * The enclosing test classes of {@code context}'s test class, outermost first (empty when it is
     * not {@code @Nested}): what {@code ExtensionContext.getEnclosingTestClasses()} (JUnit 5.12+)
     * returns, found from the parent contexts.
     */
    public static List<Class<?>> enclosingTestClasses(ExtensionContext context) {
        Class<?> testClass = context.getRequiredTestClass();
        List<Class<?>> classes = new ArrayList<>();
        for (ExtensionContext c = context.getParent().orElse(null); c != null; c = c.getParent().orElse(null)) {
            c.getTestClass().filter(t -> t != testClass && !classes.contains(t)).ifPresent(classes::add);
        }
        Collections.reverse(classes);
        return classes;
    }

    /**
     * {@code annotation} on {@code testClass} (directly, meta-present or inherited), else on the
     * closest of {@code enclosing} (outermost first) that has it: what
     * {@code AnnotationSupport.findAnnotation(Class, Class, List)} (JUnit 5.12+) finds.
     */
    public static <A extends Annotation> Optional<A> findAnnotation(Class<?> testClass, Class<A> annotation,
            List<Class<?>> enclosing) {
        Optional<A> found = AnnotationSupport.findAnnotation(testClass, annotation);
        for (int i = enclosing.size() - 1; found.isEmpty() && i >= 0; i--) {
            found = AnnotationSupport.findAnnotation(enclosing.get(i), annotation);
        }
        return found;
    }
}
