package dev.twstester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import java.util.List;
import dev.twstester.testing.ChildJvm;

/**
 * The {@code ./twstester} launcher at the repository root works from any folder and through
 * symlinks (one on the PATH, and a relative symlink to that one): it finds the build it belongs to.
 * The launcher reads {@code cli/target/launcher/}, which the build writes before the tests run.
 */
class LauncherSymlinkTest {
    private static final Path LAUNCHER = Path.of("..", "twstester").toAbsolutePath().normalize();

    @Test
    void the_launcher_runs_through_a_symlink_chain_from_another_folder(@TempDir Path dir) throws Exception {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path onPath = Files.createSymbolicLink(bin.resolve("twstester"), LAUNCHER);
        Path other = Files.createDirectories(dir.resolve("other"));
        Path relative = Files.createSymbolicLink(other.resolve("tw"), Path.of("..", "bin", "twstester"));

        for (Path link : new Path[] {onPath, relative}) {
            ChildJvm.Result run = ChildJvm.command(List.of("bash", link.toString(), "--version")).directory(dir)
                    .timeout(java.time.Duration.ofSeconds(120)).run();
            assertThat(run.exit()).as(link + ": " + run).isZero();
            assertThat(run.stdout()).as(link.toString())
                    .matches("(?s)twstester \\S+ \\(simulates Spark \\S+ transformWithState\\)\\R.*");
        }
    }

    @Test
    void the_launcher_itself_is_where_the_test_expects_it() throws IOException {
        assertThat(Files.readString(LAUNCHER)).startsWith("#!/usr/bin/env bash");
    }
}
