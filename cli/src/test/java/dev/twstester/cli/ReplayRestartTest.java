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
 * A plan's {@code restart} step: the query restarts from its checkpoint (state, timers, watermark,
 * clock and batch ids kept, a fresh processor), and no batch runs until the next file.
 */
class ReplayRestartTest {
    static final String CART = ReplayCartStoryTest.CART;
    static final String SESSIONS = ReplayProcessingTimeTest.SESSIONS;

    /** The cart files with a restart between file 2 and file 3. */
    static Path cartWithRestart(Path dir) throws IOException {
        Cli.copy("cart", dir);
        Files.writeString(dir.resolve("scenario.txt"), """
                input 001.jsonl
                input 002.jsonl
                restart
                input 003.jsonl
                """);
        return dir;
    }

    static String restartLine(String watermark, long nextBatch) {
        return "restart: the query restarted from its checkpoint (state, timers, watermark " + watermark + " and batch"
                + " ids kept; a fresh processor ran init/close on the driver); no batch runs until the next file"
                + " (batch " + nextBatch + ")\n";
    }

    @Test
    void aRestartBetweenFile2And3ChangesNothingInTheCartStoryAndTheAlertStillFires(@TempDir Path dir)
            throws IOException {
        cartWithRestart(dir);

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", CART);

        // THEN the same six batches, with the restart line between batch 3 and batch 4: the watermark
        // (10:10) and ana's timer (10:35) survive it, hat is still late, and batch 5 flags ana's cart
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo("replay of 3 files with " + CART + "#query: EventTime mode, Update output,"
                + " watermark on ts with delay PT10M; plan " + dir.resolve("scenario.txt") + ". Times in UTC.\n"
                + ReplayCartStoryTest.STORY.replace("batch 4 (data, 003.jsonl)",
                        restartLine("2024-05-01T10:10:00Z", 4) + "batch 4 (data, 003.jsonl)"));
    }

    @Test
    void afterARestartDueTimersWaitForTheNextFileAndTicksRunNoBatch(@TempDir Path dir) throws IOException {
        // GIVEN TtlSessions (idle gap 20 min): ana's and bo's sessions are due to close at 00:31
        Cli.copy("ttl", dir);
        Files.writeString(dir.resolve("scenario.txt"), """
                input 001.jsonl at=1970-01-01T00:01:00Z
                input 002.jsonl at=1970-01-01T00:11:00Z
                restart
                tick to=1970-01-01T00:31:00Z
                input 003.jsonl at=1970-01-01T00:36:00Z
                tick to=1970-01-01T00:41:00Z
                """);

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", SESSIONS, "--show-state");

        // THEN the tick at 00:31 runs no batch (without the restart it would close both sessions);
        // bo's timer fires with 003.jsonl's batch at 00:36, after ana's click there deleted hers
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).endsWith("""
                    bo: clicks (value) 1, pages (list) ["home"], timers [1970-01-01T00:31:00Z]
                %stick to 1970-01-01T00:31:00Z: no batch (the query restarted: Spark runs nothing before the next data\
                 batch)
                batch 2 (data, 003.jsonl)
                  rows in: 1, dropped late: 0
                  watermark: late 1970-01-01T00:00:00Z, eviction 1970-01-01T00:00:00Z
                  batch timestamp: 1970-01-01T00:36:00Z
                  outputs: 1
                    {"clicks":1,"closedAt":"1970-01-01T00:31:00Z","recentPages":["home"],"user":"bo"}
                  timers fired: bo@1970-01-01T00:31:00Z
                  state:
                    ana: clicks (value) 3, pages (list) ["search","cart"], timers [1970-01-01T00:56:00Z]
                batch 3 (no data, tick to 1970-01-01T00:41:00Z)
                  rows in: 0, dropped late: 0
                  watermark: late 1970-01-01T00:00:00Z, eviction 1970-01-01T00:00:00Z
                  batch timestamp: 1970-01-01T00:41:00Z
                  outputs: none
                  timers fired: none
                  state:
                    ana: clicks (value) 3, pages (list) ["cart"], timers [1970-01-01T00:56:00Z]
                total: 4 batches for 3 files: 1 output row, 1 timer fired, 0 rows dropped late; watermark \
                1970-01-01T00:00:00Z, processing time 1970-01-01T00:41:00Z; keys with state: [ana]
                """.formatted(restartLine("1970-01-01T00:00:00Z", 2)));
    }

    @Test
    void formatJsonWritesTheRestartAsALineOfItsOwnAndExpectSkipsIt(@TempDir Path dir, @TempDir Path runs)
            throws IOException {
        cartWithRestart(dir);

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", CART, "--format", "json");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        List<JsonNode> lines = ReplayCartStoryTest.jsonLines(r.out());
        assertThat(lines).hasSize(7);
        assertThat(lines.get(4).toString()).isEqualTo("{\"restart\":{\"nextBatchId\":4,"
                + "\"watermark\":\"2024-05-01T10:10:00Z\",\"processingTime\":\"1970-01-01T00:00:00Z\"}}");
        assertThat(lines).extracting(l -> l.path("batchId").asLong(-1)).containsExactly(0L, 1L, 2L, 3L, -1L, 4L, 5L);

        // WHEN the saved run is the expectation THEN it matches, with or without the restart
        Path saved = Files.writeString(runs.resolve("run.jsonl"), r.out());
        Cli.Result same = Cli.run("replay", dir.toString(), "--query", CART, "--expect", saved.toString());
        assertThat(same.exitCode()).as(same.toString()).isZero();
        Cli.Result noRestart = Cli.run("replay", dir.toString(), "--query", CART, "--no-plan", "--expect",
                saved.toString());
        assertThat(noRestart.exitCode()).as(noRestart.toString()).isZero();
    }

    @Test
    void aRestartLineWithArgumentsIsAnInputErrorWithItsLine(@TempDir Path dir) throws IOException {
        Cli.copy("cart", dir);
        Files.writeString(dir.resolve("scenario.txt"), """
                # the cart story with a restart
                input 001.jsonl
                input 002.jsonl
                restart at=1970-01-01T00:05:00Z
                input 003.jsonl
                """);

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", CART);

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID_INPUT);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo(dir.resolve("scenario.txt") + ":4: \"restart at=1970-01-01T00:05:00Z\": restart"
                + " takes nothing after it; write \"restart\" alone on its line (the query restarts from its"
                + " checkpoint there)\n");
    }
}
