package dev.twstester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import dev.twstester.cli.fixtures.CartIds;

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

    private record Run(String stdout, String stderr) {}

    /** {@code twstester replay <cart> --query CartIds} in a new JVM, with the launcher's logging configuration. */
    private static Run replay(List<String> properties) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if ((argument.startsWith("--add-") && !argument.contains("jdk.incubator"))
                    || argument.startsWith("-XX:+IgnoreUnrecognized") || argument.startsWith("-Dio.netty")) {
                command.add(argument);
            }
        }
        command.add("-Xmx1g");
        command.add("-Dlog4j2.configurationFile=" + Path.of("src", "main", "launcher", "log4j2.properties").toAbsolutePath());
        command.addAll(properties);
        // the test classes stay on the class path (the fixture is there); -Dlog4j2.configurationFile
        // takes precedence over their log4j2-test.properties
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(TwsTesterCli.class.getName());
        command.addAll(List.of("replay", Cli.resource("cart").toString(), "--query", QUERY));
        try {
            Process process = new ProcessBuilder(command).start();
            CompletableFuture<String> out = drain(process.getInputStream());
            CompletableFuture<String> err = drain(process.getErrorStream());
            if (!process.waitFor(300, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("the replay did not end within 300 s");
            }
            Run run = new Run(out.join(), err.join());
            assertThat(process.exitValue()).as("exit code; stdout:\n%s\nstderr:\n%s", run.stdout, run.stderr).isZero();
            return run;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static CompletableFuture<String> drain(InputStream in) {
        return CompletableFuture.supplyAsync(() -> {
            try (in) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
