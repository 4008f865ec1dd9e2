package dev.twstester.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.twstester.testing.ChildJvm;

/**
 * What a user's JVM prints of Spark's logging, with twstester's {@link SparkLogs}: each test starts
 * a {@link SparkLogsChild} JVM whose class path is this module's classes and dependencies without
 * the test resources, so that, as in a user's build without a Log4j configuration, Spark would load
 * its own defaults (INFO, on stderr, after a banner). The child prints its results on stdout;
 * stderr holds what Spark and Log4j printed.
 */
class SparkLogsTest {
    private static final String SIM_OUTPUT = "bean: [ana=2, bo=1]\n"
            + "catalyst: [ana=" + java.util.UUID.nameUUIDFromBytes("ana".getBytes(StandardCharsets.UTF_8))
            + ", bo=" + java.util.UUID.nameUUIDFromBytes("bo".getBytes(StandardCharsets.UTF_8)) + "]\n"
            + "state encoder: Catalyst (Spark's encoder): value: TransformingEncoder of java.util.UUID through JavaSerializationCodec\n";
    /** A line of Spark's default layout, {@code %d{yy/MM/dd HH:mm:ss} %p %c{1}: %m%n}. */
    private static final Pattern SPARK_LINE = Pattern.compile("^\\d\\d/\\d\\d/\\d\\d \\d\\d:\\d\\d:\\d\\d (\\w+) \\S+: .*");
    private static final String BANNER = "Using Spark's default log4j profile: org/apache/spark/log4j2-defaults.properties";

    @Test
    void aSimulatorRunPrintsNothingOfSparksLogging(@TempDir Path dir) {
        Child run = child(dir, List.of(), "sim");
        assertThat(run.stdout).isEqualTo(SIM_OUTPUT);
        assertThat(run.stderr).isEmpty();
    }

    @Test
    void theSwitchBringsSparksLoggingBackInTheSimulator(@TempDir Path dir) {
        Child run = child(dir, List.of("-Dtwstester.sparkLogs=info"), "sim");
        assertThat(run.stdout).isEqualTo(SIM_OUTPUT);
        assertThat(run.stderr).startsWith(BANNER + "\n");
        assertThat(run.stderr.lines()).anyMatch(l -> SPARK_LINE.matcher(l).matches()
                && l.contains(" INFO CodeGenerator: Code generated in "));
    }

    @Test
    void loggersTheUserConfiguredKeepTheirLevelsAndTheRootIsNotTouched(@TempDir Path dir) throws IOException {
        Path config = dir.resolve("log4j2.properties");
        Files.writeString(config, String.join("\n",
                "rootLogger.level = info",
                "rootLogger.appenderRef.console.ref = console",
                "appender.console.type = Console",
                "appender.console.name = console",
                "appender.console.target = SYSTEM_ERR",
                "appender.console.layout.type = PatternLayout",
                "appender.console.layout.pattern = USER %p %c: %m%n",
                "logger.codegen.name = org.apache.spark.sql.catalyst.expressions.codegen.CodeGenerator",
                "logger.codegen.level = info",
                ""));
        Child run = child(dir, List.of("-Dlog4j2.configurationFile=" + config), "sim", "user");
        assertThat(run.stdout).isEqualTo(SIM_OUTPUT);
        List<String> lines = run.stderr.lines().toList();
        assertThat(lines).as(run.stderr)
                .contains("USER INFO user.app: the application's own INFO line")
                .anyMatch(l -> l.startsWith("USER INFO org.apache.spark.sql.catalyst.expressions.codegen.CodeGenerator: "
                        + "Code generated in "))
                .allMatch(l -> l.startsWith("USER INFO org.apache.spark.sql.catalyst.expressions.codegen.CodeGenerator: ")
                        || l.equals("USER INFO user.app: the application's own INFO line"));
    }

    @Test
    void spark_sLoggersAreAtErrorForTheSimulatorAndForLiveRuns(@TempDir Path dir) {
        Child run = child(dir, List.of(), "levels");
        // Spark's defaults (root INFO) loaded silently; live runs too show Spark's errors, not its warnings
        assertThat(run.stdout).isEqualTo("levels: ERROR ERROR ERROR; netty ERROR; root INFO\n");
        assertThat(run.stderr).isEmpty();

        Child debug = child(dir, List.of("-Dtwstester.sparkLogs=DEBUG"), "levels");
        assertThat(debug.stdout).isEqualTo("levels: DEBUG DEBUG DEBUG; netty DEBUG; root INFO\n");
        assertThat(debug.stderr).isEqualTo(BANNER + "\n");
    }

    @Test
    void aValueThatIsNeitherQuietNorALevelSaysWhatToUse() {
        String before = System.getProperty(SparkLogs.PROPERTY);
        try {
            System.setProperty(SparkLogs.PROPERTY, "loud");
            assertThatThrownBy(SparkLogs::requested).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("-Dtwstester.sparkLogs=loud is neither \"quiet\" (the default: Spark's loggers at ERROR"
                            + ", their warnings hidden) nor a log level; use e.g. -Dtwstester.sparkLogs=info"
                            + " to see Spark's logging as Spark configures it");
            System.setProperty(SparkLogs.PROPERTY, " Quiet ");
            assertThat(SparkLogs.requested()).isNull();
            System.setProperty(SparkLogs.PROPERTY, "warn");
            assertThat(SparkLogs.requested()).isEqualTo(Level.WARN);
            System.clearProperty(SparkLogs.PROPERTY);
            assertThat(SparkLogs.requested()).isNull();
        } finally {
            if (before == null) {
                System.clearProperty(SparkLogs.PROPERTY);
            } else {
                System.setProperty(SparkLogs.PROPERTY, before);
            }
        }
    }

    @Test
    @Tag("live")
    void aLiveRunPrintsErrorsOnlyAndTheSwitchBringsSparksInfoBack(@TempDir Path dir) {
        Child run = child(dir, List.of(), "live");
        // the first line: a live child JVM has once printed a lone "#" after it at exit (RocksDB's native
        // threads under load), which is not Spark's logging (that goes to stderr)
        assertThat(run.stdout.lines().findFirst()).as(run.stdout).contains("live: [ana=2, bo=1]");
        // none of Spark's warnings ("DAGScheduler: Failed to cancel job group ..." twice per query, "Disabling
        // AQE since AQE is not supported in stateful workloads"): a run without errors prints nothing of Spark's
        assertThat(run.stderr).doesNotContain(BANNER).doesNotContain(" INFO ").doesNotContain(" WARN ");
        assertThat(run.stderr.lines().filter(l -> SPARK_LINE.matcher(l).matches())).as(run.stderr).isEmpty();

        Child loud = child(dir, List.of("-Dtwstester.sparkLogs=info"), "live");
        assertThat(loud.stdout.lines().findFirst()).as(loud.stdout).contains("live: [ana=2, bo=1]");
        assertThat(loud.stderr).startsWith(BANNER + "\n");
        assertThat(loud.stderr.lines()).anyMatch(l -> SPARK_LINE.matcher(l).matches()
                && l.contains(" INFO SparkContext: Running Spark version "));
        // the session's start no longer turns Spark's logging to ERROR: its INFO lines go on to the query
        assertThat(loud.stderr.lines()).anyMatch(l -> SPARK_LINE.matcher(l).matches()
                && l.contains(" INFO MicroBatchExecution: "));
    }

    private record Child(String stdout, String stderr) {}

    /**
     * Runs {@link SparkLogsChild} with {@code modes} in a JVM whose class path is this module's
     * dependencies and main classes, plus a folder holding only the child's classes (copied from the
     * test classes, whose {@code log4j2-test.properties} stays out).
     */
    private static Child child(Path dir, List<String> properties, String... modes) {
        try {
            Path testClasses = Path.of(SparkLogsChild.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path childClasses = Files.createTempDirectory(dir, "child");
            Path pkg = Path.of("dev", "twstester", "internal");
            Files.createDirectories(childClasses.resolve(pkg));
            try (Stream<Path> files = Files.list(testClasses.resolve(pkg))) {
                for (Path f : files.filter(f -> f.getFileName().toString().startsWith("SparkLogsChild")).toList()) {
                    Files.copy(f, childClasses.resolve(pkg).resolve(f.getFileName()));
                }
            }
            List<String> classPath = new ArrayList<>();
            classPath.add(childClasses.toString());
            for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
                if (!entry.isEmpty() && !Path.of(entry).toAbsolutePath().equals(testClasses.toAbsolutePath())) {
                    classPath.add(entry);
                }
            }
            ChildJvm child = ChildJvm.main(SparkLogsChild.class, modes).flag("-Xmx1g")
                    .classPath(String.join(java.io.File.pathSeparator, classPath));
            properties.forEach(child::flag);
            ChildJvm.Result result = child.run();
            assertThat(result.exit()).as("exit code of the child JVM; %s", result).isZero();
            return new Child(result.stdout(), result.stderr());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
