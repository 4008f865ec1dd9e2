package dev.twstester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.twstester.io.JsonRows;

/**
 * {@code --live}: the same files on live Spark 4.2.0 (local, RocksDB), compared batch by batch and
 * then by end state (the simulator's snapshot against the state read from live Spark's checkpoint).
 */
@Tag("live")
class ReplayLiveTest {
    static final String BATCHES_SAME = "live Spark: 6 batches, the same as the simulator's (ids, watermarks, batch"
            + " timestamps, late rows, outputs, timers, metrics)\n";
    /** What the end-state line lists as compared, after the key count. */
    static final String STATE_COMPARED = " with state or timers: every state variable's values with their TTL"
            + " expirations, the registered timers, the next batch id, the watermarks)\n";
    /** Keeps Instant.now() in state: its end states differ on the two engines, its batches do not. */
    static final String WALL_CLOCK = ReplaySimulatorOptionsTest.WALL_CLOCK;
    /** Emits System.nanoTime(): its batches differ on the two engines. */
    static final String WALL_CLOCK_ECHO = "dev.twstester.cli.fixtures.cart.WallClockEcho";
    static final String FRAUD = "dev.twstester.samples.fraud.FraudStateMachine";

    @Test
    void theCartStoryRunsTheSameOnLiveSpark() {
        Cli.Result r = Cli.run("replay", Cli.resource("cart").toString(), "--query", ReplayCartStoryTest.CART, "--live");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo(ReplayCartStoryTest.header(ReplayCartStoryTest.CART + "#query")
                + ReplayCartStoryTest.STORY + BATCHES_SAME
                + "live Spark's end state after batch 5: the same as the simulator's (1 key" + STATE_COMPARED);
        assertThat(r.err()).contains("twstester: running the same steps on live Spark (local, RocksDB state store;"
                + " then reading its end state from the checkpoint); starting Spark takes a few seconds\n")
                .containsPattern("\ntwstester: live Spark ran 6 batches and its end state was read in \\d+\\.\\d s\n");
    }

    @Test
    void theCartStoryInJsonSaysTheEndStateWasComparedAndIsTheSame() {
        Cli.Result r = Cli.run("replay", Cli.resource("cart").toString(), "--query", ReplayCartStoryTest.CART, "--live",
                "--format", "json");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        List<String> lines = r.out().lines().toList();
        assertThat(lines).hasSize(6 + 6 + 1);
        assertThat(lines.get(12)).isEqualTo("{\"comparison\":{\"left\":\"simulator\",\"right\":\"spark\",\"same\":true,"
                + "\"differences\":[],\"endState\":{\"compared\":true,\"afterBatch\":5,\"keys\":1,\"same\":true,"
                + "\"differences\":[]}}}");
    }

    @Test
    void theTtlPlanRunsTheSameOnLiveSpark() {
        Cli.Result r = Cli.run("replay", Cli.resource("ttl").toString(), "--query",
                ReplayProcessingTimeTest.SESSIONS, "--live", "--format", "json");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out().lines()).hasSize(6 + 6 + 1);
        assertThat(r.out().lines().toList().get(12)).isEqualTo("{\"comparison\":{\"left\":\"simulator\",\"right\":\"spark\","
                + "\"same\":true,\"differences\":[],\"endState\":{\"compared\":true,\"afterBatch\":5,\"keys\":0,"
                + "\"same\":true,\"differences\":[]}}}");
    }

    @Test
    void aRestartWithTwoShufflePartitionsRunsTheSameOnLiveSpark(@TempDir Path dir) throws IOException {
        ReplayRestartTest.cartWithRestart(dir);

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", ReplayCartStoryTest.CART, "--live",
                "--shuffle-partitions", "2");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains(ReplayRestartTest.restartLine("2024-05-01T10:10:00Z", 4) + "batch 4 (data, 003.jsonl)")
                .endsWith("\n" + BATCHES_SAME + "live Spark's end state after batch 5: the same as the simulator's"
                        + " (1 key" + STATE_COMPARED);
        assertThat(r.out()).startsWith("replay of 3 files with " + ReplayCartStoryTest.CART + "#query: EventTime"
                + " mode, Update output, watermark on ts with delay PT10M, 2 shuffle partitions; plan ");
    }

    @Test
    void aLegacyMapGroupsWithStateQueryHasItsEndStateComparedToo(@TempDir Path dir) throws IOException {
        // c1's big payment leaves it suspicious, with a 30-minute processing-time timeout; c2 is fine and
        // keeps no state
        Files.writeString(dir.resolve("001.jsonl"), "{\"cardId\":\"c1\",\"merchant\":\"shoes\",\"amountCents\":250000}\n"
                + "{\"cardId\":\"c2\",\"merchant\":\"cafe\",\"amountCents\":450}\n");
        Files.writeString(dir.resolve("002.jsonl"), "{\"cardId\":\"c1\",\"merchant\":\"cafe\",\"amountCents\":300}\n");

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", FRAUD, "--live");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).endsWith("live Spark: 2 batches, the same as the simulator's (ids, watermarks, batch"
                + " timestamps, late rows, outputs, timers, metrics)\nlive Spark's end state after batch 1: the same"
                + " as the simulator's (1 key" + STATE_COMPARED);
    }

    @Test
    void anEndStateThatDiffersWhileTheBatchesAgreeIsADifference() {
        Instant before = Instant.now();
        Cli.Result r = Cli.run("replay", Cli.resource("cart").toString(), "--query", WALL_CLOCK, "--live");
        Instant after = Instant.now();

        // THEN the batches agree (WallClockCart emits nothing) but every key's seen_at differs
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.DIFFERENCE);
        String out = r.out();
        String header = "live Spark: 3 batches, the same as the simulator's (ids, watermarks, batch timestamps, late"
                + " rows, outputs, timers, metrics)\nlive Spark's end state after batch 2 differs from the simulator's:"
                + " 3 differences\n";
        assertThat(out).contains(header);
        String differences = out.substring(out.indexOf(header) + header.length());
        Pattern one = Pattern.compile("end state after batch 2, key (\\w+): state variable 'seen_at' differs\n"
                + "  simulator: (\\d+)\n  spark:     (\\d+)\n");
        Matcher m = one.matcher(differences);
        for (String key : List.of("ana", "bo", "cy")) {
            assertThat(m.lookingAt()).as(differences).isTrue();
            assertThat(m.group(1)).isEqualTo(key);
            long simulated = Long.parseLong(m.group(2));
            long live = Long.parseLong(m.group(3));
            // the simulator ran first: both are wall-clock nanoseconds of this test, the simulator's earlier
            assertThat(simulated).isGreaterThanOrEqualTo(nanos(before)).isLessThan(live);
            assertThat(live).isLessThanOrEqualTo(nanos(after));
            m.region(m.end(), differences.length());
        }
        assertThat(m.regionStart()).as("nothing after the differences").isEqualTo(differences.length());
        assertThat(r.err()).endsWith("twstester: live Spark's end state differs from the simulator's (3 differences,"
                + " first: end state after batch 2, key ana: state variable 'seen_at' differs)\n");
        assertThat(r.err()).doesNotContain("live Spark differs from the simulator");
    }

    @Test
    void anEndStateThatDiffersIsInTheJsonComparisonLine() {
        Cli.Result r = Cli.run("replay", Cli.resource("cart").toString(), "--query", WALL_CLOCK, "--live",
                "--format", "json");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.DIFFERENCE);
        List<String> lines = r.out().lines().toList();
        assertThat(lines).hasSize(3 + 3 + 1);
        JsonNode comparison = json(lines.get(6)).get("comparison");
        assertThat(comparison.get("same").booleanValue()).as("same is false when only the end states differ").isFalse();
        assertThat(comparison.get("differences")).isEmpty();
        JsonNode state = comparison.get("endState");
        assertThat(state.get("compared").booleanValue()).isTrue();
        assertThat(state.get("afterBatch").longValue()).isEqualTo(2);
        assertThat(state.get("keys").intValue()).isEqualTo(3);
        assertThat(state.get("same").booleanValue()).isFalse();
        JsonNode found = state.get("differences");
        assertThat(found).hasSize(3);
        for (int i = 0; i < 3; i++) {
            JsonNode d = found.get(i);
            String key = List.of("ana", "bo", "cy").get(i);
            assertThat(d.fieldNames()).toIterable().containsExactly("batchId", "aspect", "key", "message");
            assertThat(d.get("batchId").longValue()).isEqualTo(2);
            assertThat(d.get("aspect").textValue()).isEqualTo("STATE");
            assertThat(d.get("key").textValue()).isEqualTo(key);
            assertThat(d.get("message").textValue()).matches("end state after batch 2, key " + key
                    + ": state variable 'seen_at' differs\n  simulator: \\d+\n  spark:     \\d+");
        }
        assertThat(r.err()).endsWith("twstester: live Spark's end state differs from the simulator's (3 differences,"
                + " first: end state after batch 2, key ana: state variable 'seen_at' differs)\n");
    }

    @Test
    void noCompareStateComparesTheBatchesOnly() {
        Cli.Result r = Cli.run("replay", Cli.resource("cart").toString(), "--query", WALL_CLOCK, "--live",
                "--no-compare-state");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).endsWith("live Spark: 3 batches, the same as the simulator's (ids, watermarks, batch"
                + " timestamps, late rows, outputs, timers, metrics)\nlive Spark's end state: not compared"
                + " (--no-compare-state)\n");
        assertThat(r.err()).contains("twstester: running the same steps on live Spark (local, RocksDB state store);"
                + " starting Spark takes a few seconds\n").containsPattern("\ntwstester: live Spark ran 3 batches in ");
    }

    @Test
    void whenTheBatchesDifferTheEndStatesAreNotComparedAndTheReportSaysSo() {
        Cli.Result r = Cli.run("replay", Cli.resource("cart").toString(), "--query", WALL_CLOCK_ECHO, "--live");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.DIFFERENCE);
        assertThat(r.out()).contains("live Spark differs from the simulator: 3 differences\nbatch 0 (data batch):"
                + " outputs differ at row 0\n")
                .endsWith("\nlive Spark's end state: not compared (the batches differ; the end states are compared"
                        + " when they agree)\n");
        assertThat(r.err()).endsWith("twstester: live Spark differs from the simulator (3 differences, first in"
                + " batch 0)\n");

        Cli.Result json = Cli.run("replay", Cli.resource("cart").toString(), "--query", WALL_CLOCK_ECHO, "--live",
                "--format", "json");
        JsonNode comparison = json(json.out().lines().reduce((a, b) -> b).orElseThrow()).get("comparison");
        assertThat(comparison.get("same").booleanValue()).isFalse();
        assertThat(comparison.get("differences")).hasSize(3);
        assertThat(comparison.get("endState").toString()).isEqualTo("{\"compared\":false,\"reason\":\"the batches"
                + " differ; the end states are compared when they agree\"}");
    }

    private static long nanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    private static JsonNode json(String line) {
        try {
            return JsonRows.mapper().readTree(line);
        } catch (IOException e) {
            throw new AssertionError("not JSON: " + line, e);
        }
    }
}
