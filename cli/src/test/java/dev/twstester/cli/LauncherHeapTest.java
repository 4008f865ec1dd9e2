package dev.twstester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.twstester.testing.ChildJvm;

/**
 * The {@code ./twstester} launcher starts the JVM with a heap that keeps what it has grown to
 * ({@code -XX:MaxHeapFreeRatio=100}): G1 would otherwise give memory back at each concurrent cycle
 * and take it again a few batches later, which made a large replay with {@code JAVA_OPTS=-Xmx1g}
 * slower than with {@code -Xmx256m}. A setting in {@code JAVA_OPTS} comes after it and wins.
 */
class LauncherHeapTest {
    private static final Path LAUNCHER = Path.of("..", "twstester").toAbsolutePath().normalize();

    @Test
    void the_heap_keeps_what_it_has_grown_to() {
        assertThat(maxHeapFreeRatio("-XX:+PrintFlagsFinal -Xmx1g")).isEqualTo("100");
    }

    @Test
    void java_opts_overrides_the_launchers_heap_setting() {
        assertThat(maxHeapFreeRatio("-XX:+PrintFlagsFinal -XX:MaxHeapFreeRatio=70")).isEqualTo("70");
    }

    /** The JVM's MaxHeapFreeRatio when the launcher runs {@code --version} with {@code javaOpts}. */
    private static String maxHeapFreeRatio(String javaOpts) {
        ChildJvm.Result run = ChildJvm.command(List.of("bash", LAUNCHER.toString(), "--version"))
                .env("JAVA_OPTS", javaOpts).timeout(Duration.ofSeconds(120)).run();
        assertThat(run.exit()).as(run.toString()).isZero();
        String line = run.stdout().lines().filter(l -> l.matches("\\s*uintx MaxHeapFreeRatio\\s+=.*"))
                .findFirst().orElseThrow(() -> new AssertionError("no MaxHeapFreeRatio line in " + run));
        assertThat(line).contains("{command line}");
        return line.replaceAll(".*=\\s*(\\d+).*", "$1");
    }
}
