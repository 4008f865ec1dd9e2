package dev.twstester.internal;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.Configurator;
import org.apache.logging.log4j.spi.LoggerContextFactory;

/**
 * Keeps Spark's logging quiet in the user's JVM without taking over the user's logging set-up.
 *
 * <p>Spark logs through Log4j 2. With no Log4j configuration on the class path (the usual case in a
 * test suite), the first Spark class that logs loads Spark's own defaults (every logger at INFO, on
 * stderr) and prints {@code Using Spark's default log4j profile: ...}; Spark's {@code Utils} then
 * warns about a loopback host name, the code generator logs each class it compiles, and a
 * SparkSession logs some 45 lines while it starts.
 *
 * <p>{@link #simulator()} (called before the simulator first runs Spark code that can log:
 * Spark's encoder, {@code SQLConf}) and {@link #live()} (called before the live runners' session
 * starts) do two things, once per JVM:
 * <ol>
 * <li>initialize Spark's logging as Spark would (Spark's defaults when there is no configuration),
 * but silently: no banner;</li>
 * <li>set the level of Spark's loggers ({@link #LOGGERS}: Spark, Hadoop, Spark's shaded Jetty,
 * Netty, Parquet) to ERROR, for the simulator and for live runs, each only when the current Log4j
 * configuration has no entry of that exact name. Spark's warnings in a local test run are ones a
 * user cannot act on (e.g. {@code DAGScheduler: Failed to cancel job group} twice per query when
 * it stops, {@code Disabling AQE since AQE is not supported in stateful workloads}); its errors
 * (a failed task, a failed query) are still shown. A logger the user configured keeps the
 * user's level; the root logger and the user's own loggers are never touched.</li>
 * </ol>
 *
 * <p>The system property {@value #PROPERTY} turns Spark's logging back on:
 * {@code -Dtwstester.sparkLogs=info} leaves Spark to initialize its logging as it does (the
 * banner included) and sets those same loggers to INFO; any Log4j level name works the same way
 * ({@code warn}, {@code debug}, ...). {@code quiet} is the default.
 *
 * <p>When Log4j 2's core is not the logging back end (SLF4J bound elsewhere), nothing is changed.
 *
 * <p>Public for {@code dev.twstester.spark} ({@code LiveSpark} sets the live run's log levels).
 */
public final class SparkLogs {
    /** The system property that sets the level of Spark's loggers: {@code quiet} (the default) or a Log4j level. */
    public static final String PROPERTY = "twstester.sparkLogs";
    /** The default value of {@value #PROPERTY}. */
    public static final String QUIET = "quiet";
    /** The loggers set, each with everything below it (Spark's, Hadoop's, Spark's shaded Jetty, Netty, Parquet). */
    static final List<String> LOGGERS = List.of("org.apache.spark", "org.apache.hadoop", "org.sparkproject",
            "io.netty", "org.apache.parquet");

    /**
     * Loggers this class added to {@link #configuration}, and the level it gave them. These three
     * fields are read and written only in {@link #apply}, which holds the class's lock, so
     * simulators and live runs starting on several threads at once set the levels once.
     */
    private static final Set<String> OURS = new HashSet<>();
    private static Configuration configuration;
    private static Level applied;

    private SparkLogs() {}

    /** Before the simulator runs Spark code that logs: Spark's loggers at ERROR (unless configured or switched on). */
    public static void simulator() {
        apply(Level.ERROR);
    }

    /** Before a live run starts its session: Spark's loggers at ERROR (unless configured or switched on). */
    public static void live() {
        apply(Level.ERROR);
    }

    /**
     * The level {@value #PROPERTY} asks for, or null for {@code quiet}.
     *
     * @throws IllegalArgumentException for a value that is neither {@code quiet} nor a Log4j level
     */
    static Level requested() {
        String value = System.getProperty(PROPERTY, QUIET).trim();
        if (value.isEmpty() || value.equalsIgnoreCase(QUIET)) {
            return null;
        }
        Level level = Level.getLevel(value.toUpperCase(Locale.ROOT));
        if (level == null) {
            throw new IllegalArgumentException("-D" + PROPERTY + "=" + value + " is neither \"" + QUIET
                    + "\" (the default: Spark's loggers at ERROR, their warnings hidden) nor a log level;"
                    + " use e.g. -D" + PROPERTY + "=info to see Spark's logging as Spark configures it");
        }
        return level;
    }

    private static synchronized void apply(Level quiet) {
        Level asked = requested();
        if (!log4jCore()) {
            return;
        }
        // Spark's own initialization: its defaults when Log4j has no configuration (a reload of the
        // configuration, which is why it comes before the levels), the banner only when asked for
        org.apache.spark.util.SparkErrorUtils$.MODULE$.initializeLogIfNecessary(false, asked == null);
        Level level = asked != null ? asked : quiet;
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        Configuration current = context.getConfiguration();
        if (current != configuration) {
            // a new configuration (first call, or a reload dropped what was set): start over
            configuration = current;
            OURS.clear();
            applied = null;
        }
        if (applied != null && level.intLevel() <= applied.intLevel()) {
            return; // as verbose already
        }
        for (String name : LOGGERS) {
            if (OURS.contains(name) || !current.getLoggers().containsKey(name)) {
                OURS.add(name);
                Configurator.setLevel(name, level);
            }
        }
        applied = level;
    }

    /** Whether Log4j 2's core is the back end: its classes are there and the context is one of its. */
    private static boolean log4jCore() {
        try {
            LoggerContextFactory factory = LogManager.getFactory();
            return factory instanceof org.apache.logging.log4j.core.impl.Log4jContextFactory
                    && LogManager.getContext(false) instanceof LoggerContext;
        } catch (LinkageError e) {
            return false;
        }
    }
}
