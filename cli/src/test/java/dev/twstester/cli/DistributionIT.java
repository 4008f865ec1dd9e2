package dev.twstester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.twstester.testing.ChildJvm;

/**
 * The installable command line, {@code cli/target/twstester-<version>/} as {@code mvn package} makes it
 * (run by failsafe, after the package phase): copied to another folder it needs nothing of the clone,
 * runs through a symlink on a PATH-like folder, replays the cart story exactly as the in-process CLI
 * does, and names a missing jar instead of failing obscurely.
 */
class DistributionIT {
    private static final String VERSION = System.getProperty("twstester.version", "0.1.0-SNAPSHOT");
    private static final Path BUILT = Path.of("target", "twstester-" + VERSION).toAbsolutePath();
    private static final Path CLONE = Path.of("..").toAbsolutePath().normalize();

    @TempDir
    static Path dir;
    private static Path installed;

    /** The folder copied elsewhere (hard links where the file system allows, else copies). */
    @BeforeAll
    static void install() throws IOException {
        assertThat(BUILT.resolve("bin/twstester")).as("the distribution folder, made by mvn package").isExecutable();
        installed = dir.resolve("opt").resolve("twstester");
        try (Stream<Path> files = Files.walk(BUILT)) {
            for (Path from : (Iterable<Path>) files::iterator) {
                Path to = installed.resolve(BUILT.relativize(from).toString());
                if (Files.isDirectory(from)) {
                    Files.createDirectories(to);
                } else {
                    try {
                        Files.createLink(to, from);
                    } catch (FileSystemException | UnsupportedOperationException e) {
                        Files.copy(from, to, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
                    }
                }
            }
        }
    }

    @Test
    void theFolderHasTheLauncherTheJarsAndNoPathIntoTheClone() throws IOException {
        assertThat(installed.resolve("bin/twstester")).isExecutable();
        assertThat(Files.readString(installed.resolve("bin/twstester")))
                .isEqualTo(Files.readString(CLONE.resolve("twstester")));
        assertThat(installed.resolve("lib/cli-" + VERSION + ".jar")).isRegularFile();
        String classpath = Files.readString(installed.resolve("conf/classpath.txt")).strip();
        assertThat(classpath.split(":")).allSatisfy(entry -> {
            assertThat(entry).startsWith("lib/");
            assertThat(installed.resolve(entry)).isRegularFile();
        });
        assertThat(classpath).contains("lib/tester-core-" + VERSION + ".jar", "lib/spark-sql_2.13-", "lib/picocli-");
        for (String conf : List.of("conf/classpath.txt", "conf/jvm-flags.txt", "conf/log4j2.properties")) {
            assertThat(Files.readString(installed.resolve(conf))).as(conf).doesNotContain(CLONE.toString());
        }
    }

    @Test
    void itRunsThroughASymlinkFromAnyFolder() throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        Path link = bin.resolve("twstester");
        Files.deleteIfExists(link);
        Files.createSymbolicLink(link, installed.resolve("bin/twstester"));

        Run run = run(List.of(link.toString(), "--version"));
        assertThat(run.exit).as(run.toString()).isZero();
        assertThat(run.stdout).startsWith("twstester " + VERSION + " (simulates Spark 4.2.0 transformWithState)\n");
    }

    @Test
    void itReplaysTheCartStoryAsTheCliDoes() {
        // twice: the first run archives the classes (AppCDS) into the folder's cds/, the second uses them
        for (int i = 0; i < 2; i++) {
            Run run = run(List.of(installed.resolve("bin/twstester").toString(), "replay",
                    Cli.resource("cart").toString(), "--query", ReplayCartStoryTest.CART,
                    "--classpath", CLONE.resolve("samples/target/classes").toString()));
            assertThat(run.exit).as(run.toString()).isZero();
            assertThat(run.stdout).isEqualTo(ReplayCartStoryTest.header(ReplayCartStoryTest.CART + "#query")
                    + ReplayCartStoryTest.STORY);
            assertThat(run.stderr).isEqualTo("twstester: replaying 3 files with " + ReplayCartStoryTest.CART
                    + "#query on the simulator\n");
        }
        assertThat(installed.resolve("cds")).isDirectoryContaining("glob:**/twstester-*.jsa");
    }

    @Test
    void aMissingJarIsNamed() throws IOException {
        Path broken = dir.resolve("broken");
        Files.createDirectories(broken.resolve("bin"));
        Files.createDirectories(broken.resolve("conf"));
        Files.createDirectories(broken.resolve("lib"));
        Files.copy(installed.resolve("bin/twstester"), broken.resolve("bin/twstester"),
                java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        Files.writeString(broken.resolve("conf/classpath.txt"), "lib/gone-1.0.jar\n");
        Files.writeString(broken.resolve("lib/cli-" + VERSION + ".jar"), "");

        Run run = run(List.of(broken.resolve("bin/twstester").toString(), "--version"));
        assertThat(run.exit).isEqualTo(70);
        assertThat(run.stderr).isEqualTo("twstester: " + broken.toRealPath() + "/lib/gone-1.0.jar is missing: this"
                + " installation is incomplete; copy the whole folder cli/target/twstester-<version>/ of a build again\n");
    }

    private record Run(int exit, String stdout, String stderr) {}

    /** Runs {@code command} from a folder that is neither the clone nor the installation. */
    private static Run run(List<String> command) {
        try {
            Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
            ChildJvm.Result result = ChildJvm.command(command).directory(elsewhere).withoutEnv("JAVA_OPTS").run();
            return new Run(result.exit(), result.stdout(), result.stderr());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static CompletableFuture<String> drain(InputStream stream) {
        return CompletableFuture.supplyAsync(() -> {
            try (stream) {
                return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
