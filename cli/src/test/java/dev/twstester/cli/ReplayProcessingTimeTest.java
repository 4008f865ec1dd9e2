package dev.twstester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A ProcessingTime query with TTL and processing-time timers (TtlSessions: idle gap 20 min, TTL
 * 30 min), replayed with the clock times of a plan file or of options.
 */
class ReplayProcessingTimeTest {
    static final String SESSIONS = "dev.twstester.samples.ttl.TtlSessions";

    /** The batches of ttl/scenario.txt, with --show-state. */
    static final String BATCHES = """
            batch 0 (data, 001.jsonl)
              rows in: 1, dropped late: 0
              watermark: late 1970-01-01T00:00:00Z, eviction 1970-01-01T00:00:00Z
              batch timestamp: 1970-01-01T00:01:00Z
              outputs: none
              timers fired: none
              state:
                ana: clicks (value) 1, pages (list) ["home"], timers [1970-01-01T00:21:00Z]
            batch 1 (data, 002.jsonl)
              rows in: 2, dropped late: 0
              watermark: late 1970-01-01T00:00:00Z, eviction 1970-01-01T00:00:00Z
              batch timestamp: 1970-01-01T00:11:00Z
              outputs: none
              timers fired: none
              state:
                ana: clicks (value) 2, pages (list) ["home","search"], timers [1970-01-01T00:31:00Z]
                bo: clicks (value) 1, pages (list) ["home"], timers [1970-01-01T00:31:00Z]
            batch 2 (data, 003.jsonl)
              rows in: 1, dropped late: 0
              watermark: late 1970-01-01T00:00:00Z, eviction 1970-01-01T00:00:00Z
              batch timestamp: 1970-01-01T00:26:00Z
              outputs: none
              timers fired: none
              state:
                ana: clicks (value) 3, pages (list) ["home","search","cart"], timers [1970-01-01T00:46:00Z]
                bo: clicks (value) 1, pages (list) ["home"], timers [1970-01-01T00:31:00Z]
            batch 3 (no data, tick to 1970-01-01T00:31:00Z)
              rows in: 0, dropped late: 0
              watermark: late 1970-01-01T00:00:00Z, eviction 1970-01-01T00:00:00Z
              batch timestamp: 1970-01-01T00:31:00Z
              outputs: 1
                {"clicks":1,"closedAt":"1970-01-01T00:31:00Z","recentPages":["home"],"user":"bo"}
              timers fired: bo@1970-01-01T00:31:00Z
              state:
                ana: clicks (value) 3, pages (list) ["search","cart"], timers [1970-01-01T00:46:00Z]
            batch 4 (no data, tick to 1970-01-01T00:41:00Z)
              rows in: 0, dropped late: 0
              watermark: late 1970-01-01T00:00:00Z, eviction 1970-01-01T00:00:00Z
              batch timestamp: 1970-01-01T00:41:00Z
              outputs: none
              timers fired: none
              state:
                ana: clicks (value) 3, pages (list) ["cart"], timers [1970-01-01T00:46:00Z]
            batch 5 (no data, tick to 1970-01-01T00:46:00Z)
              rows in: 0, dropped late: 0
              watermark: late 1970-01-01T00:00:00Z, eviction 1970-01-01T00:00:00Z
              batch timestamp: 1970-01-01T00:46:00Z
              outputs: 1
                {"clicks":3,"closedAt":"1970-01-01T00:46:00Z","recentPages":["cart"],"user":"ana"}
              timers fired: ana@1970-01-01T00:46:00Z
              state: none
            total: 6 batches for 3 files: 2 output rows, 2 timers fired, 0 rows dropped late; \
            watermark 1970-01-01T00:00:00Z, processing time 1970-01-01T00:46:00Z; keys with state: []
            """;

    @Test
    void followsTheFoldersScenarioTxtPlanTtlExpiresPagesAndTimersCloseSessions() {
        Path ttl = Cli.resource("ttl");

        Cli.Result r = Cli.run("replay", ttl.toString(), "--query", SESSIONS, "--show-state");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo("replay of 3 files with " + SESSIONS + "#query: ProcessingTime mode, Update output,"
                + " no watermark; plan " + ttl.resolve("scenario.txt") + ". Times in UTC.\n" + BATCHES);
    }

    @Test
    void atAndTickOptionsGiveTheSameReplayAsThePlan() {
        Cli.Result r = Cli.run("replay", Cli.resource("ttl").toString(), "--query", SESSIONS, "--show-state",
                "--no-plan",
                "--at", "001.jsonl=1970-01-01T00:01:00Z", "--at", "002.jsonl=1970-01-01T00:11:00Z",
                "--at", "003.jsonl=1970-01-01T00:26:00Z",
                "--tick", "1970-01-01T00:46:00Z", "--tick", "1970-01-01T00:31:00Z", "--tick", "1970-01-01T00:41:00Z");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).endsWith(BATCHES);
    }

    @Test
    void batchIntervalPicksFileKUpAtStartPlusKIntervalsAndTicksGoBetweenFiles() {
        Cli.Result r = Cli.run("replay", Cli.resource("ttl").toString(), "--query", SESSIONS, "--no-plan",
                "--batch-interval", "PT10M", "--start", "1970-01-01T00:00:00Z", "--tick", "1970-01-01T00:25:00Z");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("""
                batch 0 (data, 001.jsonl)""", """
                  batch timestamp: 1970-01-01T00:10:00Z""", """
                batch 1 (data, 002.jsonl)""", """
                  batch timestamp: 1970-01-01T00:20:00Z""", """
                batch 2 (no data, tick to 1970-01-01T00:25:00Z)""", """
                batch 3 (data, 003.jsonl)
                  rows in: 1, dropped late: 0
                  watermark: late 1970-01-01T00:00:00Z, eviction 1970-01-01T00:00:00Z
                  batch timestamp: 1970-01-01T00:30:00Z""");
    }

    @Test
    void withoutTimesFilesArePickedUpOneMinuteApartWithANoteOnStderr() {
        Cli.Result r = Cli.run("replay", Cli.resource("ttl").toString(), "--query", SESSIONS, "--no-plan");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.err()).contains("twstester: ProcessingTime query without --batch-interval, --at or a plan:"
                + " file k is picked up at 1970-01-01T00:00:00Z + k * PT1M\n");
        assertThat(r.out()).contains("  batch timestamp: 1970-01-01T00:01:00Z", "  batch timestamp: 1970-01-01T00:02:00Z",
                "  batch timestamp: 1970-01-01T00:03:00Z");
    }

    @Test
    void aTickBeforeTheFirstBatchRunsNoBatch() {
        Cli.Result r = Cli.run("replay", Cli.resource("ttl").toString(), "--query", SESSIONS, "--no-plan",
                "--batch-interval", "PT10M", "--tick", "1970-01-01T00:05:00Z");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("\ntick to 1970-01-01T00:05:00Z: no batch (no batch has run yet: Spark runs nothing"
                + " before the first data batch)\nbatch 0 (data, 001.jsonl)\n");
    }

    @Test
    void timesThatDoNotMoveForwardAreAUsageError() {
        Cli.Result r = Cli.run("replay", Cli.resource("ttl").toString(), "--query", SESSIONS, "--no-plan",
                "--at", "001.jsonl=1970-01-01T00:30:00Z", "--batch-interval", "PT10M");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("002.jsonl at 1970-01-01T00:20:00Z is before 001.jsonl (1970-01-01T00:30:00Z)"
                + " (options); processing time never moves backwards\n");
    }

    @Test
    void aPlanLineThatIsNotAStepIsAnInputErrorWithItsLine(@TempDir Path dir) throws IOException {
        Cli.copy("ttl", dir);
        Files.writeString(dir.resolve("scenario.txt"), """
                # plan
                input 001.jsonl at=1970-01-01T00:01:00Z
                input 002.jsonl at=1970-01-01T00:11:00Z
                wait 5 minutes
                """);

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", SESSIONS);

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID_INPUT);
        assertThat(r.err()).isEqualTo(dir.resolve("scenario.txt") + ":4: cannot read \"wait 5 minutes\"; a step is"
                + " \"input 001.jsonl at=current\", \"input 002.jsonl at=2024-05-01T10:00:00Z\", \"add 003.jsonl\","
                + " \"tick to=2024-05-01T10:05:00Z\", \"stop\", \"start\", \"restart\" or \"deploy com.acme.Carts#fixed\"\n");
    }

    @Test
    void aFileMissingFromThePlanIsAnInputError(@TempDir Path dir) throws IOException {
        Cli.copy("ttl", dir);
        Files.writeString(dir.resolve("scenario.txt"), """
                input 001.jsonl at=1970-01-01T00:01:00Z
                input 002.jsonl at=1970-01-01T00:11:00Z
                """);

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", SESSIONS);

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID_INPUT);
        assertThat(r.err()).isEqualTo(dir.resolve("scenario.txt") + ": " + dir.resolve("003.jsonl")
                + " is not in the plan; add a line \"input 003.jsonl at=current\" or move the file away\n");
    }
}
