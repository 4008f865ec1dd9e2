package dev.twstester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.twstester.BatchResult;

/** {@code --shuffle-partitions}, {@code --check-retries}, {@code --real-time} and {@code --show-metrics}. */
class ReplaySimulatorOptionsTest {
    static final String CART = ReplayCartStoryTest.CART;
    /** Emits "user:rows" per handleInputRows call. */
    static final String ROWS_PER_CALL = "dev.twstester.cli.fixtures.cart.RowsPerCall";
    /** Keeps Instant.now() in state. */
    static final String WALL_CLOCK = "dev.twstester.cli.fixtures.cart.WallClockCart";

    @Test
    void shufflePartitions3OutputsPartitionByPartition() {
        Path cart = Cli.resource("cart");

        Cli.Result one = Cli.run("replay", cart.toString(), "--query", ROWS_PER_CALL);
        Cli.Result three = Cli.run("replay", cart.toString(), "--query", ROWS_PER_CALL, "--shuffle-partitions", "3");

        // THEN with one partition the keys come in key order; with three, bo's partition comes before ana's
        assertThat(one.out()).contains("""
                  outputs: 2
                    "ana:2"
                    "bo:1"
                """);
        assertThat(three.exitCode()).as(three.toString()).isZero();
        assertThat(three.out()).startsWith("replay of 3 files with " + ROWS_PER_CALL + "#query: None mode, Update"
                + " output, no watermark, 3 shuffle partitions. Times in UTC.\n");
        assertThat(three.out()).contains("""
                batch 0 (data, 001.jsonl)
                  rows in: 3, dropped late: 0
                  watermark: late 1970-01-01T00:00:00Z, eviction 1970-01-01T00:00:00Z
                  batch timestamp: 1970-01-01T00:00:00Z
                  outputs: 2
                    "bo:1"
                    "ana:2"
                  timers fired: none
                """);
    }

    @Test
    void checkRetriesFailsAProcessorThatKeepsTheWallClockInStateWithExitCode4() {
        Path cart = Cli.resource("cart");

        Cli.Result plain = Cli.run("replay", cart.toString(), "--query", WALL_CLOCK);
        Cli.Result checked = Cli.run("replay", cart.toString(), "--query", WALL_CLOCK, "--check-retries");

        assertThat(plain.exitCode()).as("without the check it runs").isZero();
        assertThat(checked.exitCode()).as(checked.toString()).isEqualTo(ExitCodes.PROCESSOR_FAILED);
        assertThat(checked.out()).isEqualTo("replay of 3 files with " + WALL_CLOCK + "#query: None mode, Update"
                + " output, no watermark; simulator: every batch run twice to check retries. Times in UTC.\n");
        assertThat(checked.err()).isEqualTo("twstester: replaying 3 files with " + WALL_CLOCK + "#query on the"
                + " simulator\n" + cart.resolve("001.jsonl") + ": batch 0 is not deterministic: run twice from the"
                + " same committed state, as Spark does when it retries a task, key bo: state variable 'seen_at' holds"
                + " different data after the retry than after the first run. Look for reads of the wall clock (use"
                + " TimerValues instead), randomness, or state kept outside the state API in the processor.\n");
    }

    @Test
    void checkRetriesPassesTheCartStory() {
        Cli.Result r = Cli.run("replay", Cli.resource("cart").toString(), "--query", CART, "--check-retries");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo("replay of 3 files with " + CART + "#query: EventTime mode, Update output,"
                + " watermark on ts with delay PT10M; simulator: every batch run twice to check retries. Times in"
                + " UTC.\n" + ReplayCartStoryTest.STORY);
    }

    @Test
    void realTimeCallsHandleInputRowsOncePerRow() {
        Cli.Result r = Cli.run("replay", Cli.resource("cart").toString(), "--query", ROWS_PER_CALL, "--real-time",
                "--check-retries");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo("replay of 3 files with " + ROWS_PER_CALL + "#query: None mode, Update output,"
                + " no watermark; simulator: every batch run twice to check retries, real-time mode (one"
                + " handleInputRows call per row). Times in UTC.\n" + """
                batch 0 (data, 001.jsonl)
                  rows in: 3, dropped late: 0
                  watermark: late 1970-01-01T00:00:00Z, eviction 1970-01-01T00:00:00Z
                  batch timestamp: 1970-01-01T00:00:00Z
                  outputs: 3
                    "ana:1"
                    "ana:1"
                    "bo:1"
                  timers fired: none
                batch 1 (data, 002.jsonl)
                  rows in: 2, dropped late: 0
                  watermark: late 1970-01-01T00:00:00Z, eviction 1970-01-01T00:00:00Z
                  batch timestamp: 1970-01-01T00:00:00Z
                  outputs: 2
                    "bo:1"
                    "bo:1"
                  timers fired: none
                batch 2 (data, 003.jsonl)
                  rows in: 2, dropped late: 0
                  watermark: late 1970-01-01T00:00:00Z, eviction 1970-01-01T00:00:00Z
                  batch timestamp: 1970-01-01T00:00:00Z
                  outputs: 2
                    "bo:1"
                    "cy:1"
                  timers fired: none
                total: 3 batches for 3 files: 7 output rows, 0 timers fired, 0 rows dropped late; watermark \
                1970-01-01T00:00:00Z, processing time 1970-01-01T00:00:00Z; keys with state: []
                """);
    }

    @Test
    void showMetricsPrintsEachBatchsNonZeroMetricsAfterItsOutputs() {
        Cli.Result r = Cli.run("replay", Cli.resource("cart").toString(), "--query", CART, "--show-metrics");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo(ReplayCartStoryTest.header(CART + "#query") + withMetrics(
                ReplayCartStoryTest.STORY,
                "numRegisteredTimers=3, numDeletedTimers=1, numValueStateVars=1, numListStateVars=1,"
                        + " numUpdatedStateRows=6",
                "numValueStateVars=1, numListStateVars=1",
                "numRegisteredTimers=1, numDeletedTimers=2, numValueStateVars=1, numListStateVars=1,"
                        + " numUpdatedStateRows=2, numRemovedStateRows=3",
                "numValueStateVars=1, numListStateVars=1",
                "numRegisteredTimers=1, numValueStateVars=1, numListStateVars=1, numUpdatedStateRows=2,"
                        + " numRowsDroppedByWatermark=1",
                "numDeletedTimers=1, numExpiredTimers=1, numValueStateVars=1, numListStateVars=1,"
                        + " numRemovedStateRows=3"));
    }

    @Test
    void showMetricsSaysNoneForABatchWithoutAny() {
        Cli.Result r = Cli.run("replay", Cli.resource("cart").toString(), "--query", ROWS_PER_CALL, "--show-metrics");

        assertThat(r.out()).contains("  timers fired: none\n  metrics: none\nbatch 1 (data, 002.jsonl)\n");
    }

    @Test
    void formatJsonAlwaysHasEveryMetricInSparksOrderAndExpectComparesThem(@TempDir Path dir) throws IOException {
        Path cart = Cli.resource("cart");
        Cli.Result r = Cli.run("replay", cart.toString(), "--query", CART, "--format", "json");

        List<JsonNode> lines = ReplayCartStoryTest.jsonLines(r.out());
        List<String> names = new ArrayList<>();
        lines.get(0).get("metrics").fieldNames().forEachRemaining(names::add);
        assertThat(names).isEqualTo(BatchResult.METRIC_NAMES);
        assertThat(lines.get(5).get("metrics").get("numExpiredTimers").asLong()).isEqualTo(1L);

        // WHEN a saved run's metric differs THEN --expect reports it
        Path changed = Files.writeString(dir.resolve("changed.jsonl"),
                r.out().replace("\"numExpiredTimers\":1", "\"numExpiredTimers\":2"));
        Cli.Result differs = Cli.run("replay", cart.toString(), "--query", CART, "--expect", changed.toString());
        assertThat(differs.exitCode()).as(differs.toString()).isEqualTo(ExitCodes.DIFFERENCE);
        assertThat(differs.out()).contains("""
                expected run %s differs from the simulator: 1 difference
                batch 5 (no-data batch): metric numExpiredTimers differs
                  simulator: 1
                  expected:  2
                """.formatted(changed));
    }

    @Test
    void badPartitionCountsAndRealTimeWithLiveAreUsageErrors() {
        String cart = Cli.resource("cart").toString();

        Cli.Result zero = Cli.run("replay", cart, "--query", CART, "--shuffle-partitions", "0");
        assertThat(zero.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(zero.out()).isEmpty();
        assertThat(zero.err()).isEqualTo("--shuffle-partitions 0: give 1 or more (Spark's"
                + " spark.sql.shuffle.partitions)\n");

        Cli.Result word = Cli.runConfigured("replay", cart, "--query", CART, "--shuffle-partitions", "three");
        assertThat(word.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(word.err()).isEqualTo("Invalid value for option '--shuffle-partitions': 'three' is not an int\n"
                + "Try 'twstester replay --help' for more information.\n");

        Cli.Result realTimeLive = Cli.run("replay", cart, "--query", CART, "--real-time", "--live");
        assertThat(realTimeLive.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(realTimeLive.out()).isEmpty();
        assertThat(realTimeLive.err()).isEqualTo("--real-time: live Spark has no real-time mode here; drop --live to"
                + " run it on the simulator, or --real-time to compare with Spark's micro-batches\n");
    }

    @Test
    void helpListsTheNewOptionsAndThePlanSteps() {
        Cli.Result r = Cli.run("replay", "--help");

        assertThat(r.out()).contains("--show-metrics", "--shuffle-partitions=<n>", "--check-retries", "--real-time",
                "--trigger-interval=<duration>", "        add 003.jsonl\n", "        stop\n", "        start\n",
                "        restart\n", "        deploy com.acme.Carts#fixed\n",
                "    first trigger reads the waiting rows, if any; restart: stop, then start;\n",
                "    deploy: the query stops and the version that query method (as for\n");
    }

    /** {@code story} with a metrics line after each batch's "timers fired" line, in batch order. */
    private static String withMetrics(String story, String... metrics) {
        StringBuilder b = new StringBuilder();
        int batch = 0;
        for (String line : story.split("\n", -1)) {
            b.append(line).append('\n');
            if (line.startsWith("  timers fired: ")) {
                b.append("  metrics: ").append(metrics[batch++]).append('\n');
            }
        }
        assertThat(batch).isEqualTo(metrics.length);
        return b.substring(0, b.length() - 1);
    }
}
