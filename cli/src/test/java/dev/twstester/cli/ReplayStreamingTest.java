package dev.twstester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import picocli.CommandLine;

/**
 * The replay streams: without a comparison it lets go of each step's batches and rows before the
 * next (a file's rows are read again when the first reading did not keep them), and what it prints
 * stays the same; text stays bounded for many outputs and many keys.
 */
class ReplayStreamingTest {
    static final String CART = ReplayCartStoryTest.CART;
    static final String COUNT = "dev.twstester.samples.counts.RunningCount";

    /** Runs {@code replay} with the first reading keeping {@code keepRows} rows. */
    static Cli.Result replay(long keepRows, String... args) {
        ReplayCommand command = new ReplayCommand();
        command.keepRows = keepRows;
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = new CommandLine(command).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true))
                .execute(args);
        return new Cli.Result(exit, out.toString().replace(System.lineSeparator(), "\n"),
                err.toString().replace(System.lineSeparator(), "\n"));
    }

    @Test
    void filesReadAgainWhenTheirBatchRunsPrintTheSameStory() {
        Cli.Result r = replay(0, Cli.resource("cart").toString(), "--query", CART);

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo(ReplayCartStoryTest.header(CART + "#query") + ReplayCartStoryTest.STORY);
        assertThat(r.err()).isEqualTo("twstester: replaying 3 files with " + CART + "#query on the simulator\n");
    }

    @Test
    void keepingOnlyTheFirstFilePrintsTheSameStoryAsJson() {
        // 001.jsonl (3 rows) is kept, 002 and 003 are read again
        Cli.Result kept = replay(Long.MAX_VALUE, Cli.resource("cart").toString(), "--query", CART, "--format", "json",
                "--show-state");
        Cli.Result partly = replay(3, Cli.resource("cart").toString(), "--query", CART, "--format", "json",
                "--show-state");

        assertThat(partly.exitCode()).as(partly.toString()).isZero();
        assertThat(partly.out()).isEqualTo(kept.out());
        assertThat(partly.out().lines().count()).isEqualTo(6);
    }

    @Test
    void aFileNamedTwiceInThePlanIsReadForBothBatches(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("001.jsonl"), "{\"value\":\"a\"}\n{\"value\":\"b\"}\n{\"value\":\"a\"}\n");
        Files.writeString(dir.resolve("scenario.txt"), "input 001.jsonl\ninput 001.jsonl\n");
        for (long keep : new long[] {0, 3, Long.MAX_VALUE}) {
            Cli.Result r = replay(keep, dir.toString(), "--query", COUNT, "-q");

            assertThat(r.exitCode()).as(r.toString()).isZero();
            assertThat(r.out()).as("keepRows " + keep).contains("""
                    batch 1 (data, 001.jsonl)
                      rows in: 3, dropped late: 0
                    """).contains("""
                      outputs: 2
                        {"_1":"a","_2":4}
                        {"_1":"b","_2":2}
                    """).endsWith("keys with state: [a, b]\n");
        }
    }

    @Test
    void aBadLineInAFileNotKeptStopsTheReplayBeforeTheFirstBatch(@TempDir Path dir) throws IOException {
        Cli.copy("cart", dir);
        Files.writeString(dir.resolve("003.jsonl"), """
                {"userId":"cy","event":"add","item":"lamp","ts":"2024-05-01T10:50:00Z"}
                {"userId":"cy","event":"add","item":"lamp","ts":"2024-05-01T10:51:00Z"
                """);

        Cli.Result r = replay(0, dir.toString(), "--query", CART);

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID_INPUT);
        assertThat(r.out()).as("every file is read before the first batch runs").isEmpty();
        assertThat(r.err()).startsWith(dir.resolve("003.jsonl") + ":2: ");
    }

    @Test
    void aNoteOnAFieldNotInTheSchemaIsPrintedOnceThoughTheFileIsReadTwice(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("001.jsonl"), "{\"value\":\"a\",\"extra\":1}\n{\"value\":\"b\",\"extra\":2}\n");

        Cli.Result r = replay(0, dir.toString(), "--query", COUNT, "-q");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.err().lines().toList()).singleElement().asString()
                .startsWith(dir.resolve("001.jsonl") + ":1: note: ").contains("\"extra\"");
    }

    @Test
    void manyKeysAreCountedWithTheFirstTenNamed(@TempDir Path dir) throws IOException {
        StringBuilder rows = new StringBuilder();
        for (int k = 0; k < 25; k++) {
            rows.append(String.format("{\"value\":\"k%02d\"}%n", 24 - k));
        }
        Files.writeString(dir.resolve("001.jsonl"), rows);

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", COUNT, "-q");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).endsWith("total: 1 batch for 1 file: 25 output rows, 0 timers fired, 0 rows dropped late;"
                + " watermark 1970-01-01T00:00:00Z, processing time 1970-01-01T00:00:00Z; keys with state: 25"
                + " (first 10: [k00, k01, k02, k03, k04, k05, k06, k07, k08, k09])\n");
    }

    @Test
    void tenKeysAreListedAsBefore(@TempDir Path dir) throws IOException {
        StringBuilder rows = new StringBuilder();
        for (int k = 0; k < 10; k++) {
            rows.append("{\"value\":\"k").append(k).append("\"}\n");
        }
        Files.writeString(dir.resolve("001.jsonl"), rows);

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", COUNT, "-q");

        assertThat(r.out()).endsWith("; keys with state: [k0, k1, k2, k3, k4, k5, k6, k7, k8, k9]\n");
    }

    @Test
    void aBatchShowsAtMostMaxRowsOutputsAndStateKeys(@TempDir Path dir) throws IOException {
        StringBuilder rows = new StringBuilder();
        for (int k = 0; k < 7; k++) {
            rows.append("{\"value\":\"k").append(k).append("\"}\n");
        }
        Files.writeString(dir.resolve("001.jsonl"), rows);

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", COUNT, "-q", "--max-rows", "3", "--show-state");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("""
                  outputs: 7
                    {"_1":"k0","_2":1}
                    {"_1":"k1","_2":1}
                    {"_1":"k2","_2":1}
                    ... and 4 more (--max-rows 0 shows all, --format json has all)
                  timers fired: none
                  state:
                    k0: count (value) 1
                    k1: count (value) 1
                    k2: count (value) 1
                    ... and 4 more (--max-rows 0 shows all, --format json has all)
                total: 1 batch for 1 file: 7 output rows""");

        Cli.Result all = Cli.run("replay", dir.toString(), "--query", COUNT, "-q", "--max-rows", "0");
        List<String> outputs = new ArrayList<>(all.out().lines().filter(l -> l.startsWith("    {")).toList());
        assertThat(outputs).hasSize(7);
        assertThat(all.out()).doesNotContain("more (");
    }

    @Test
    void aNegativeMaxRowsIsAUsageError() {
        Cli.Result r = Cli.run("replay", Cli.resource("cart").toString(), "--query", CART, "--max-rows", "-1");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).contains("--max-rows -1: give 0 (show all) or more");
        assertThat(r.out()).isEmpty();
    }
}
