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
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The guide's three-file cart story, replayed from files: six batches, ana's cart flagged at 10:35
 * by the no-data batch after the watermark reached 10:40. Surefire runs in Pacific/Kiritimati, so
 * any time printed in the JVM's zone would show here.
 */
class ReplayCartStoryTest {
    static final String CART = "dev.twstester.samples.cart.CartWatch";

    static final String STORY = """
            batch 0 (data, 001.jsonl)
              rows in: 3, dropped late: 0
              watermark: late 1970-01-01T00:00:00Z, eviction 1970-01-01T00:00:00Z
              batch timestamp: 1970-01-01T00:00:00Z
              outputs: none
              timers fired: none
            batch 1 (no data, after 001.jsonl)
              rows in: 0, dropped late: 0
              watermark: late 1970-01-01T00:00:00Z, eviction 2024-05-01T09:58:00Z
              batch timestamp: 1970-01-01T00:00:00Z
              outputs: none
              timers fired: none
            batch 2 (data, 002.jsonl)
              rows in: 2, dropped late: 0
              watermark: late 2024-05-01T09:58:00Z, eviction 2024-05-01T09:58:00Z
              batch timestamp: 1970-01-01T00:00:00Z
              outputs: none
              timers fired: none
            batch 3 (no data, after 002.jsonl)
              rows in: 0, dropped late: 0
              watermark: late 2024-05-01T09:58:00Z, eviction 2024-05-01T10:10:00Z
              batch timestamp: 1970-01-01T00:00:00Z
              outputs: none
              timers fired: none
            batch 4 (data, 003.jsonl)
              rows in: 2, dropped late: 1
                {"event":"add","item":"hat","ts":"2024-05-01T10:09:00Z","userId":"bo"}
              watermark: late 2024-05-01T10:10:00Z, eviction 2024-05-01T10:10:00Z
              batch timestamp: 1970-01-01T00:00:00Z
              outputs: none
              timers fired: none
            batch 5 (no data, after 003.jsonl)
              rows in: 0, dropped late: 0
              watermark: late 2024-05-01T10:10:00Z, eviction 2024-05-01T10:40:00Z
              batch timestamp: 1970-01-01T00:00:00Z
              outputs: 1
                {"itemCount":2,"lastSeen":"2024-05-01T10:05:00Z","userId":"ana"}
              timers fired: ana@2024-05-01T10:35:00Z
            total: 6 batches for 3 files: 1 output row, 1 timer fired, 1 row dropped late; \
            watermark 2024-05-01T10:40:00Z, processing time 1970-01-01T00:00:00Z; keys with state: [cy]
            """;

    static String header(String queryName) {
        return "replay of 3 files with " + queryName + ": EventTime mode, Update output, watermark on ts with delay"
                + " PT10M. Times in UTC.\n";
    }

    @Test
    void printsTheThreeFileStoryBatchByBatch() {
        Cli.Result r = Cli.run("replay", Cli.resource("cart").toString(), "--query", CART);

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo(header(CART + "#query") + STORY);
        assertThat(r.err()).isEqualTo("twstester: replaying 3 files with " + CART + "#query on the simulator\n");
    }

    @Test
    void quietLeavesStderrEmpty() {
        Cli.Result r = Cli.run("replay", Cli.resource("cart").toString(), "--query", CART, "-q");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo(header(CART + "#query") + STORY);
        assertThat(r.err()).isEmpty();
    }

    @Test
    void takesFilesInNameOrderWhateverTheArgumentOrder() {
        Path cart = Cli.resource("cart");

        Cli.Result r = Cli.run("replay", cart.resolve("003.jsonl").toString(), cart.resolve("001.jsonl").toString(),
                cart.resolve("002.jsonl").toString(), "--query", CART + "#query");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo(header(CART + "#query") + STORY);
    }

    @Test
    void findsTheQueryThroughASupplierClass() {
        String supplier = "dev.twstester.cli.fixtures.cart.CartWatchSupplier";

        Cli.Result r = Cli.run("replay", Cli.resource("cart").toString(), "--query", supplier);

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo(header(supplier) + STORY);
    }

    @Test
    void anEmptyFileIsAnEmptyBatch(@TempDir Path dir) throws IOException {
        Cli.copy("cart", dir);
        Files.writeString(dir.resolve("004.jsonl"), "");

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", CART);

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("""
                batch 6 (data, 004.jsonl)
                  rows in: 0, dropped late: 0
                  watermark: late 2024-05-01T10:40:00Z, eviction 2024-05-01T10:40:00Z
                  batch timestamp: 1970-01-01T00:00:00Z
                  outputs: none
                  timers fired: none
                total: 7 batches for 4 files:""");
    }

    @Test
    void showStatePrintsEachKeysStateAndTimersAfterEachFile() {
        Cli.Result r = Cli.run("replay", Cli.resource("cart").toString(), "--query", CART, "--show-state");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        // after file 1 (with its no-data batch): carts of ana and bo, each with a timer 30 min after the last add
        assertThat(r.out()).contains("""
                batch 1 (no data, after 001.jsonl)
                  rows in: 0, dropped late: 0
                  watermark: late 1970-01-01T00:00:00Z, eviction 2024-05-01T09:58:00Z
                  batch timestamp: 1970-01-01T00:00:00Z
                  outputs: none
                  timers fired: none
                  state:
                    ana: items (list) ["boots","socks"], last_seen (value) 1714557900000, timers [2024-05-01T10:35:00Z]
                    bo: items (list) ["mug"], last_seen (value) 1714558080000, timers [2024-05-01T10:38:00Z]
                batch 2""");
        // after file 2: bo checked out, so only ana is left
        assertThat(r.out()).contains("""
                  timers fired: none
                  state:
                    ana: items (list) ["boots","socks"], last_seen (value) 1714557900000, timers [2024-05-01T10:35:00Z]
                batch 4""");
        // after file 3: ana's cart was flagged and cleared; cy's lamp remains
        assertThat(r.out()).contains("""
                  timers fired: ana@2024-05-01T10:35:00Z
                  state:
                    cy: items (list) ["lamp"], last_seen (value) 1714560600000, timers [2024-05-01T11:20:00Z]
                total: 6 batches""");
        // the state is shown after a file's last batch only: batch 0 is followed by batch 1 directly
        assertThat(r.out()).contains("  timers fired: none\nbatch 1 (no data, after 001.jsonl)");
    }

    @Test
    void formatJsonWritesOneObjectPerBatchAndNothingElse() throws IOException {
        Cli.Result r = Cli.run("replay", Cli.resource("cart").toString(), "--query", CART, "--format", "json");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        List<JsonNode> lines = jsonLines(r.out());
        assertThat(lines).hasSize(6);
        assertThat(lines).extracting(l -> l.get("batchId").asLong()).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
        assertThat(lines).extracting(l -> l.get("hadInput").asBoolean())
                .containsExactly(true, false, true, false, true, false);
        assertThat(lines).extracting(l -> l.get("file").asText())
                .containsExactly("001.jsonl", "001.jsonl", "002.jsonl", "002.jsonl", "003.jsonl", "003.jsonl");
        assertThat(lines.get(4).get("droppedLate").toString())
                .isEqualTo("[{\"event\":\"add\",\"item\":\"hat\",\"ts\":\"2024-05-01T10:09:00Z\",\"userId\":\"bo\"}]");
        assertThat(lines.get(5).get("evictionWatermark").asText()).isEqualTo("2024-05-01T10:40:00Z");
        assertThat(lines.get(5).get("outputs").toString())
                .isEqualTo("[{\"itemCount\":2,\"lastSeen\":\"2024-05-01T10:05:00Z\",\"userId\":\"ana\"}]");
        assertThat(lines.get(5).get("firedTimers").toString())
                .isEqualTo("[{\"key\":\"ana\",\"expiry\":\"2024-05-01T10:35:00Z\"}]");
        assertThat(lines.get(0).has("state")).isFalse();
        assertThat(lines.get(0).has("engine")).isFalse();
    }

    @Test
    void formatJsonWithShowStateAddsAStateArrayToEachFilesLastBatch() throws IOException {
        Cli.Result r = Cli.run("replay", Cli.resource("cart").toString(), "--query", CART, "--format", "json",
                "--show-state");

        List<JsonNode> lines = jsonLines(r.out());
        assertThat(lines.get(0).has("state")).isFalse();
        assertThat(lines.get(5).get("state").toString()).isEqualTo("[{\"key\":\"cy\",\"variables\":"
                + "{\"items\":[\"lamp\"],\"last_seen\":1714560600000},\"timers\":[\"2024-05-01T11:20:00Z\"]}]");
    }

    @Test
    void expectPassesOnTheSavedRunAndFailsWithExitCode1WhenItDiffers(@TempDir Path dir) throws IOException {
        // GIVEN a run saved with --format json
        String saved = Cli.run("replay", Cli.resource("cart").toString(), "--query", CART, "--format", "json").out();
        Path expected = Files.writeString(dir.resolve("run.jsonl"), saved);

        // WHEN it is replayed against it THEN it matches
        Cli.Result same = Cli.run("replay", Cli.resource("cart").toString(), "--query", CART, "--expect",
                expected.toString());
        assertThat(same.exitCode()).as(same.toString()).isZero();
        assertThat(same.out()).endsWith("expected run " + expected
                + ": 6 batches, the same as the simulator's (ids, watermarks, batch timestamps, late rows, outputs,"
                + " timers, metrics)\n");

        // WHEN the saved run says ana had 3 items THEN exit 1, and the difference is shown
        Path changed = Files.writeString(dir.resolve("changed.jsonl"), saved.replace("\"itemCount\":2", "\"itemCount\":3"));
        Cli.Result differs = Cli.run("replay", Cli.resource("cart").toString(), "--query", CART, "--expect",
                changed.toString());
        assertThat(differs.exitCode()).as(differs.toString()).isEqualTo(ExitCodes.DIFFERENCE);
        assertThat(differs.out()).contains("""
                expected run %s differs from the simulator: 1 difference
                batch 5 (no-data batch): outputs differ at row 0
                  simulator: [>>CartAlert{userId=ana, itemCount=2, lastSeen=2024-05-01T10:05:00Z}<<]
                  expected:  [>>CartAlert{userId=ana, itemCount=3, lastSeen=2024-05-01T10:05:00Z}<<]
                """.formatted(changed));
        assertThat(differs.err()).endsWith("twstester: expected run " + changed
                + " differs from the simulator (1 difference, first in batch 5)\n");
    }

    @Test
    void expectComparesTheSavedRunsFailedBatchesOnceAndNamesThem(@TempDir Path dir) throws IOException {
        ExpectedFailures.assertExpectComparesFailedBatches(dir, Cli.resource("cart").toString(), CART);
    }

    @Test
    void aTickInEventTimeModeOnlyMovesTheClock() {
        Cli.Result r = Cli.run("replay", Cli.resource("cart").toString(), "--query", CART,
                "--tick", "2024-05-01T12:00:00Z");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("\ntick to 2024-05-01T12:00:00Z: no batch (only the clock moved: EventTime"
                + " queries run batches for input, not for trigger ticks)\ntotal: 6 batches");
        assertThat(r.out()).endsWith("processing time 2024-05-01T12:00:00Z; keys with state: [cy]\n");
    }

    static List<JsonNode> jsonLines(String out) throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> lines = new ArrayList<>();
        for (String line : out.split("\n")) {
            lines.add(json.readTree(line));
        }
        return lines;
    }
}
