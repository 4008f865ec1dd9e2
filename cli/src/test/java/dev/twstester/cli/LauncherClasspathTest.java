package dev.twstester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;


import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher gives the samples' classes in a system property, not on the JVM's classpath (a JVM
 * that makes an AppCDS archive refuses class folders there): the CLI finds queries in them and
 * names them among the places searched.
 */
class LauncherClasspathTest {
    @Test
    void aQueryInTheLaunchersClassFolderIsFoundAndTheFolderIsNamedWhenAClassIsNot(@TempDir Path dir)
            throws IOException {
        Path classes = Cli.compileCartsQuery(dir, "launched", "query");

        Cli.Result before = Cli.run("replay", Cli.resource("cart").toString(), "--query", "launched.Carts");
        assertThat(before.exitCode()).as(before.toString()).isEqualTo(ExitCodes.USAGE);

        System.setProperty(QueryLoader.LAUNCHER_CLASSPATH, classes.toString());
        try {
            Cli.Result found = Cli.run("replay", Cli.resource("cart").toString(), "--query", "launched.Carts");
            assertThat(found.exitCode()).as(found.toString()).isZero();
            assertThat(found.out()).isEqualTo(ReplayCartStoryTest.header("launched.Carts#query")
                    + ReplayCartStoryTest.STORY);

            Cli.Result missing = Cli.run("replay", Cli.resource("cart").toString(), "--query", "launched.Nope");
            assertThat(missing.exitCode()).as(missing.toString()).isEqualTo(ExitCodes.USAGE);
            assertThat(missing.err()).startsWith("--query: unknown class launched.Nope; searched --classpath (none)"
                    + " and the tool's classpath [").contains(classes + "]");
        } finally {
            System.clearProperty(QueryLoader.LAUNCHER_CLASSPATH);
        }
    }
}
