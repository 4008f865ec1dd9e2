package dev.twstester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A query of two stateful operators, defined by a static method, replayed from the samples' files
 * ({@code samples/src/main/resources/cart-digest}): {@code CartFlags} flags abandoned carts,
 * {@code HourlyDigest} counts them per hour; each batch shows both operators' views, and the JSON
 * lines carry them in {@code "operators"}.
 */
class ReplayChainTest {
    static final String CHAIN = "dev.twstester.samples.chain.ChainQueries#abandonedCartDigest";
    static final Path FILES = Path.of("../samples/src/main/resources/cart-digest");

    static final String HEADER = "replay of 5 files with " + CHAIN + ": 2 stateful operators: operator 0 (CartFlags)"
            + " EventTime mode, Update output, watermark on ts with delay PT10M, output event time flaggedAt;"
            + " operator 1 (HourlyDigest) EventTime mode, Update output. Times in UTC.\n";

    static final String STORY = """
            batch 0 (data, 001.jsonl)
              rows in: 3, dropped late: 0
              watermark: late 1970-01-01T00:00:00Z, eviction 1970-01-01T00:00:00Z
              batch timestamp: 1970-01-01T00:00:00Z
              operator 0 (CartFlags):
                outputs: none
                timers fired: none
              operator 1 (HourlyDigest), the query's output:
                rows in: 0, dropped late: 0
                outputs: none
                timers fired: none
            batch 1 (no data, after 001.jsonl)
              rows in: 0, dropped late: 0
              watermark: late 1970-01-01T00:00:00Z, eviction 2024-05-01T09:58:00Z
              batch timestamp: 1970-01-01T00:00:00Z
              operator 0 (CartFlags):
                outputs: none
                timers fired: none
              operator 1 (HourlyDigest), the query's output:
                rows in: 0, dropped late: 0
                outputs: none
                timers fired: none
            batch 2 (data, 002.jsonl)
              rows in: 2, dropped late: 0
              watermark: late 2024-05-01T09:58:00Z, eviction 2024-05-01T09:58:00Z
              batch timestamp: 1970-01-01T00:00:00Z
              operator 0 (CartFlags):
                outputs: none
                timers fired: none
              operator 1 (HourlyDigest), the query's output:
                rows in: 0, dropped late: 0
                outputs: none
                timers fired: none
            batch 3 (no data, after 002.jsonl)
              rows in: 0, dropped late: 0
              watermark: late 2024-05-01T09:58:00Z, eviction 2024-05-01T10:10:00Z
              batch timestamp: 1970-01-01T00:00:00Z
              operator 0 (CartFlags):
                outputs: none
                timers fired: none
              operator 1 (HourlyDigest), the query's output:
                rows in: 0, dropped late: 0
                outputs: none
                timers fired: none
            batch 4 (data, 003.jsonl)
              rows in: 3, dropped late: 0
              watermark: late 2024-05-01T10:10:00Z, eviction 2024-05-01T10:10:00Z
              batch timestamp: 1970-01-01T00:00:00Z
              operator 0 (CartFlags):
                outputs: none
                timers fired: none
              operator 1 (HourlyDigest), the query's output:
                rows in: 0, dropped late: 0
                outputs: none
                timers fired: none
            batch 5 (no data, after 003.jsonl)
              rows in: 0, dropped late: 0
              watermark: late 2024-05-01T10:10:00Z, eviction 2024-05-01T10:45:00Z
              batch timestamp: 1970-01-01T00:00:00Z
              operator 0 (CartFlags):
                outputs: 1
                  {"flaggedAt":"2024-05-01T10:35:00Z","itemCount":2,"userId":"ana"}
                timers fired: ana@2024-05-01T10:35:00Z
              operator 1 (HourlyDigest), the query's output:
                rows in: 1, dropped late: 0
                outputs: none
                timers fired: none
            batch 6 (data, 004.jsonl)
              rows in: 1, dropped late: 0
              watermark: late 2024-05-01T10:45:00Z, eviction 2024-05-01T10:45:00Z
              batch timestamp: 1970-01-01T00:00:00Z
              operator 0 (CartFlags):
                outputs: none
                timers fired: none
              operator 1 (HourlyDigest), the query's output:
                rows in: 0, dropped late: 0
                outputs: none
                timers fired: none
            batch 7 (no data, after 004.jsonl)
              rows in: 0, dropped late: 0
              watermark: late 2024-05-01T10:45:00Z, eviction 2024-05-01T11:35:00Z
              batch timestamp: 1970-01-01T00:00:00Z
              operator 0 (CartFlags):
                outputs: 2
                  {"flaggedAt":"2024-05-01T11:20:00Z","itemCount":1,"userId":"cy"}
                  {"flaggedAt":"2024-05-01T11:25:00Z","itemCount":2,"userId":"dee"}
                timers fired: cy@2024-05-01T11:20:00Z, dee@2024-05-01T11:25:00Z
              operator 1 (HourlyDigest), the query's output:
                rows in: 2, dropped late: 0
                outputs: 1
                  {"carts":1,"hour":"2024-05-01T10:00:00Z","items":2}
                timers fired: 2024-05-01T10:00:00Z@2024-05-01T11:00:00Z
            batch 8 (data, 005.jsonl)
              rows in: 1, dropped late: 0
              watermark: late 2024-05-01T11:35:00Z, eviction 2024-05-01T11:35:00Z
              batch timestamp: 1970-01-01T00:00:00Z
              operator 0 (CartFlags):
                outputs: none
                timers fired: none
              operator 1 (HourlyDigest), the query's output:
                rows in: 0, dropped late: 0
                outputs: none
                timers fired: none
            batch 9 (no data, after 005.jsonl)
              rows in: 0, dropped late: 0
              watermark: late 2024-05-01T11:35:00Z, eviction 2024-05-01T12:20:00Z
              batch timestamp: 1970-01-01T00:00:00Z
              operator 0 (CartFlags):
                outputs: 1
                  {"flaggedAt":"2024-05-01T12:15:00Z","itemCount":1,"userId":"ed"}
                timers fired: ed@2024-05-01T12:15:00Z
              operator 1 (HourlyDigest), the query's output:
                rows in: 1, dropped late: 0
                outputs: 1
                  {"carts":2,"hour":"2024-05-01T11:00:00Z","items":3}
                timers fired: 2024-05-01T11:00:00Z@2024-05-01T12:00:00Z
            total: 10 batches for 5 files: 2 output rows, 6 timers fired, 0 rows dropped late; \
            watermark 2024-05-01T12:20:00Z, processing time 1970-01-01T00:00:00Z; keys with state: operator 0 [fay], operator 1 [2024-05-01T12:00:00Z]
            """;

    @Test
    void printsEachOperatorsViewOfEveryBatch() {
        Cli.Result r = Cli.run("replay", FILES.toString(), "--query", CHAIN);

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo(HEADER + STORY);
        assertThat(r.err()).isEqualTo("twstester: replaying 5 files with " + CHAIN + " on the simulator\n");
    }

    @Test
    void showStateAndShowMetricsAreEachOperators() {
        Cli.Result r = Cli.run("replay", FILES.toString(), "--query", CHAIN, "--show-state", "--show-metrics");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("""
                    timers fired: 2024-05-01T10:00:00Z@2024-05-01T11:00:00Z
                    metrics: numRegisteredTimers=1, numDeletedTimers=1, numExpiredTimers=1, numValueStateVars=2, \
                numUpdatedStateRows=4, numRemovedStateRows=2
                  state of operator 0 (CartFlags):
                    ed: items (value) 1, last_add (value) 1714563900000, timers [2024-05-01T12:15:00Z]
                  state of operator 1 (HourlyDigest):
                    2024-05-01T11:00:00Z: carts (value) 2, items (value) 3, timers [2024-05-01T12:00:00Z]
                batch 8 (data, 005.jsonl)
                """, """
                    timers fired: cy@2024-05-01T11:20:00Z, dee@2024-05-01T11:25:00Z
                    metrics: numDeletedTimers=2, numExpiredTimers=2, numValueStateVars=2, numRemovedStateRows=4
                """, """
                  state of operator 0 (CartFlags):
                    ana: items (value) 2, last_add (value) 1714557900000, timers [2024-05-01T10:35:00Z]
                    bo: items (value) 1, last_add (value) 1714558080000, timers [2024-05-01T10:38:00Z]
                  state of operator 1 (HourlyDigest): none
                batch 2 (data, 002.jsonl)
                """);
    }

    @Test
    void jsonLinesCarryEachOperatorsViewAndState() throws IOException {
        Cli.Result r = Cli.run("replay", FILES.toString(), "--query", CHAIN, "--format", "json", "--show-state");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        List<JsonNode> lines = ReplayCartStoryTest.jsonLines(r.out());
        assertThat(lines).hasSize(10);
        JsonNode batch7 = lines.get(7);
        assertThat(batch7.get("file").asText()).isEqualTo("004.jsonl");
        assertThat(batch7.get("outputs").toString()).as("the query's outputs: the last operator's")
                .isEqualTo("[{\"carts\":1,\"hour\":\"2024-05-01T10:00:00Z\",\"items\":2}]");
        assertThat(batch7.get("firedTimers").toString()).as("the first operator's timers")
                .isEqualTo("[{\"key\":\"cy\",\"expiry\":\"2024-05-01T11:20:00Z\"},"
                        + "{\"key\":\"dee\",\"expiry\":\"2024-05-01T11:25:00Z\"}]");
        JsonNode flags = batch7.get("operators").get(0);
        JsonNode digest = batch7.get("operators").get(1);
        assertThat(flags.get("outputs").toString()).isEqualTo("[{\"flaggedAt\":\"2024-05-01T11:20:00Z\",\"itemCount\":1,"
                + "\"userId\":\"cy\"},{\"flaggedAt\":\"2024-05-01T11:25:00Z\",\"itemCount\":2,\"userId\":\"dee\"}]");
        assertThat(digest.get("input")).isEqualTo(flags.get("outputs"));
        assertThat(digest.get("firedTimers").toString())
                .isEqualTo("[{\"key\":\"2024-05-01T10:00:00Z\",\"expiry\":\"2024-05-01T11:00:00Z\"}]");
        assertThat(digest.get("metrics").get("numRegisteredTimers").asLong()).isEqualTo(1L);
        assertThat(digest.get("state").toString()).isEqualTo("[{\"key\":\"2024-05-01T11:00:00Z\",\"variables\":"
                + "{\"carts\":2,\"items\":3},\"timers\":[\"2024-05-01T12:00:00Z\"]}]");
        assertThat(batch7.get("state")).as("the batch's own state: the first operator's").isEqualTo(flags.get("state"));
    }

    @Test
    void expectComparesEveryOperatorsViewAndNamesTheOperator(@TempDir Path dir) throws IOException {
        Cli.Result saved = Cli.run("replay", FILES.toString(), "--query", CHAIN, "--format", "json", "--show-state");
        Path same = Files.writeString(dir.resolve("same.jsonl"), saved.out());

        Cli.Result r = Cli.run("replay", FILES.toString(), "--query", CHAIN, "--expect", same.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).endsWith(STORY + "expected run " + same + ": 10 batches, the same as the simulator's (ids,"
                + " watermarks, batch timestamps, late rows, outputs, timers, metrics)\n");

        // WHEN the saved run's second operator fired its timer for another hour
        Path changed = Files.writeString(dir.resolve("changed.jsonl"), saved.out().replace(
                "{\"key\":\"2024-05-01T10:00:00Z\",\"expiry\":\"2024-05-01T11:00:00Z\"}",
                "{\"key\":\"2024-05-01T09:00:00Z\",\"expiry\":\"2024-05-01T11:00:00Z\"}"));
        Cli.Result differs = Cli.run("replay", FILES.toString(), "--query", CHAIN, "--expect", changed.toString());

        assertThat(differs.exitCode()).as(differs.toString()).isEqualTo(ExitCodes.DIFFERENCE);
        assertThat(differs.out()).contains("""
                expected run %s differs from the simulator: 1 difference
                operator 1 (HourlyDigest): batch 7 (no-data batch), key 2024-05-01T10:00:00Z: fired timers differ at timer 0
                  simulator: [>>2024-05-01T10:00:00Z@2024-05-01T11:00:00Z<<]
                  expected:  [>>2024-05-01T09:00:00Z@2024-05-01T11:00:00Z<<]
                expected run %s, batch by batch:
                batch 0 (data, 001.jsonl)
                """.formatted(changed, changed));
        assertThat(differs.err()).endsWith("twstester: expected run " + changed + " differs from the simulator"
                + " (1 difference, first in batch 7)\n");
    }

    @Test
    void expectComparesTheSavedRunsFailedBatchesOnceAndNamesThem(@TempDir Path dir) throws IOException {
        ExpectedFailures.assertExpectComparesFailedBatches(dir, FILES.toString(), CHAIN);
    }

    @Test
    void helpSaysWhatABatchOfSeveralOperatorsShowsAndNamesTheExample() {
        Cli.Result r = Cli.run("replay", "--help");

        assertThat(r.out()).contains("  twstester replay samples/src/main/resources/cart-digest \\\n"
                + "      --query " + CHAIN + "\n");
        assertThat(r.out().replaceAll("\\s+", " ")).contains("for a query of several stateful operators (TwsQuery#then)"
                + " each operator's outputs and timers fired, and from the second operator on its rows in and dropped"
                + " as late (the last operator's outputs are the query's).");
    }
}
