package dev.twstester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.twstester.cli.fixtures.CartIds;
import dev.twstester.testing.ChildJvm;

/**
 * What {@code ./twstester replay} prints of Spark's logging, in a JVM set up as the launcher sets
 * it up (its {@code log4j2.properties}, not the tests' configuration): nothing on the simulator, even
 * for a query whose state goes through Spark's encoder (code generation logs at INFO), unless
 * {@code -Dtwstester.sparkLogs} asks for it.
 */
class ReplayQuietTest {
    private static final String QUERY = CartIds.class.getName();

    @Test
    void aSimulatorReplayPrintsNothingOfSparksLogging() {
        Run run = replay(List.of());
        assertThat(run.stdout).contains("ana=" + java.util.UUID.nameUUIDFromBytes("ana".getBytes(StandardCharsets.UTF_8)));
        assertThat(run.stderr).isEqualTo("twstester: replaying 3 files with " + QUERY + "#query on the simulator\n");
    }

    @Test
    void theSwitchShowsSparksInfoLines() {
        Run run = replay(List.of("-Dtwstester.sparkLogs=info"));
        assertThat(run.stderr).startsWith("twstester: replaying 3 files with " + QUERY + "#query on the simulator\n");
        // the launcher's pattern: %d{HH:mm:ss} %p %c{1}: %m%n
        assertThat(run.stderr.lines()).anyMatch(l -> l.matches("\\d\\d:\\d\\d:\\d\\d INFO CodeGenerator: Code generated in .*"));
    }

    @Test
    @Tag("live")
    void aQuietLiveReplayPrintsNoneOfSparksWarnings() {
        Run run = replay(List.of(), "--live", "-q");
        assertThat(run.stdout).contains("ana=" + java.util.UUID.nameUUIDFromBytes("ana".getBytes(StandardCharsets.UTF_8)));
        // e.g. "WARN DAGScheduler: Failed to cancel job group ..." (twice per query) and "Disabling AQE ..."
        assertThat(run.stderr).as(run.stderr).doesNotContain(" WARN ").isEmpty();
    }

    private record Run(String stdout, String stderr) {}

    /** {@code twstester replay <cart> --query CartIds} in a new JVM, with the launcher's logging configuration. */
    private static Run replay(List<String> properties, String... options) {
        // the test classes stay on the class path (the fixture is there); -Dlog4j2.configurationFile
        // takes precedence over their log4j2-test.properties
        List<String> args = new java.util.ArrayList<>(List.of("replay", Cli.resource("cart").toString(), "--query", QUERY));
        args.addAll(List.of(options));
        ChildJvm child = ChildJvm.main(TwsTesterCli.class, args.toArray(String[]::new))
                .flag("-Xmx1g").property("log4j2.configurationFile",
                        Path.of("src", "main", "launcher", "log4j2.properties").toAbsolutePath().toString());
        properties.forEach(child::flag);
        ChildJvm.Result result = child.run();
        assertThat(result.exit()).as("exit code; %s", result).isZero();
        return new Run(result.stdout(), result.stderr());
    }
}
