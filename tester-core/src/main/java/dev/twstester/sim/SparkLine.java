package dev.twstester.sim;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Spark release line whose {@code transformWithState} rules a simulator follows. By default the
 * line of the Spark on the class path (the user's own {@code spark-sql}): {@link #onClassPath()}.
 * Where the lines differ, the simulator follows its line:
 * <ul>
 *   <li>Before 4.1, an exception thrown by the processor's own code is not wrapped in
 *       {@code TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR} (SPARK-51869 added that error class in 4.1):
 *       thrown in a task it fails the stage with the user's exception as the cause, thrown by the
 *       driver-side {@code init} it fails the query as it is, or, a {@code NullPointerException}, as
 *       Spark's {@code INTERNAL_ERROR} of query planning.</li>
 *   <li>Before 4.1, the driver-side {@code init} pass hands back {@code null} for
 *       {@code getValueState}, {@code getListState} and {@code getMapState}.</li>
 * </ul>
 *
 * <pre>{@code
 * SparkLine.onClassPath();                       // V4_2 with Spark 4.2.0 on the class path
 * TwsSimulator.builder(query).sparkLine(SparkLine.V4_0).build();   // Spark 4.0's rules
 * }</pre>
 */
public enum SparkLine {
    /** Spark 4.0.x. */
    V4_0("4.0"),
    /** Spark 4.1.x. */
    V4_1("4.1"),
    /** Spark 4.2.x. */
    V4_2("4.2");

    private static final Pattern VERSION = Pattern.compile("(\\d+)\\.(\\d+)(?:\\.(\\d+))?.*");

    private final String name;

    SparkLine(String name) {
        this.name = name;
    }

    /** The line of the Spark on the class path ({@code org.apache.spark.SPARK_VERSION}); the first call warns once on stderr if that Spark is outside the modelled lines. */
    public static SparkLine onClassPath() {
        return ClassPath.LINE;
    }

    /** The version of the Spark on the class path, e.g. {@code "4.1.3"}. */
    public static String classPathVersion() {
        return ClassPath.VERSION_TEXT;
    }

    /** The modelled line nearest to {@code version} (e.g. {@code "4.1.3"} gives {@link #V4_1}, {@code "3.5.1"} {@link #V4_0}). */
    public static SparkLine nearest(String version) {
        Matcher m = VERSION.matcher(version);
        if (!m.matches()) {
            return V4_2;
        }
        int major = Integer.parseInt(m.group(1));
        int minor = Integer.parseInt(m.group(2));
        if (major < 4) {
            return V4_0;
        }
        if (major > 4) {
            return V4_2;
        }
        return switch (minor) {
            case 0 -> V4_0;
            case 1 -> V4_1;
            default -> V4_2;
        };
    }

    /** The warning for a Spark {@code version} outside the modelled lines (4.0.x, 4.1.x, 4.2.x), if it is. */
    public static Optional<String> warning(String version) {
        Matcher m = VERSION.matcher(version);
        boolean modelled = m.matches() && m.group(1).equals("4") && Integer.parseInt(m.group(2)) <= 2;
        if (modelled) {
            return Optional.empty();
        }
        return Optional.of("twstester: Spark " + version + " is on the class path, but twstester models Spark 4.0,"
                + " 4.1 and 4.2; it simulates the nearest, Spark " + nearest(version)
                + ". Use a Spark 4.0.x, 4.1.x or 4.2.x spark-sql to have its own rules.");
    }

    /** Whether the processor's own exceptions are wrapped in {@code TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR}. */
    boolean wrapsUserFunctionErrors() {
        return this != V4_0;
    }

    /** Whether the driver-side {@code init} pass hands out state variables (else null). */
    boolean driverPassHasStateVariables() {
        return this != V4_0;
    }

    /** {@code "4.0"}, {@code "4.1"} or {@code "4.2"}. */
    @Override
    public String toString() {
        return name;
    }

    /**
     * Read once, when first asked: Spark's own {@code org.apache.spark.SPARK_VERSION}, which is
     * {@code SparkBuildInfo.spark_version}. Read from there, as the package object initialises
     * more (its short version through Scala regular expressions) that the simulator never uses.
     */
    private static final class ClassPath {
        static final String VERSION_TEXT = org.apache.spark.SparkBuildInfo$.MODULE$.spark_version();
        static final SparkLine LINE = nearest(VERSION_TEXT);

        static {
            warning(VERSION_TEXT).ifPresent(System.err::println);
        }
    }
}
