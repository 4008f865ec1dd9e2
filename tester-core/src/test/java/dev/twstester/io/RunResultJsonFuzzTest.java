package dev.twstester.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.sql.Date;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.FailedBatch;
import dev.twstester.FiredTimer;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.testing.Mutations;

import scala.Tuple2;

/**
 * 20,000 mutated run files, 5,000 in each of {@link RunResultJson}'s forms (one batch per line;
 * one document), and as many of a run with failed batches, read back: each gives a run (one batch
 * or failed batch per line that is not blank) or fails with an
 * {@link IllegalArgumentException} naming the line ({@code line N: }) or, in a document, the batch
 * or the JSON line and column. Never another exception, never a hang.
 * {@code -Dtwstester.fuzz.scale=N} reads N times as many.
 */
class RunResultJsonFuzzTest {
    static final int RUNS_PER_FORM = 5_000;
    static final TwsQuery<String, Reading, Tuple2<String, Long>> READINGS = CountProcessor.query();

    static RunResult<String, Reading, Tuple2<String, Long>> run() {
        Instant t = Instant.parse("2024-05-01T10:00:00Z");
        Reading a = new Reading("s1", Timestamp.from(t), Date.valueOf("2024-05-01"), 1.5);
        Reading b = new Reading("s2", Timestamp.from(t.plusSeconds(30)), Date.valueOf("2024-05-02"), -2);
        return new RunResult<>(List.of(
                new BatchResult<>(0, true, List.of(a, b), List.of(), t, Instant.EPOCH, Instant.EPOCH,
                        List.of(new Tuple2<>("s1", 1L), new Tuple2<>("s2", 1L)), List.of()),
                new BatchResult<>(1, true, List.of(b), List.of(a), t.plusSeconds(5), t, t,
                        List.of(new Tuple2<>("s2", 2L)), List.of(new FiredTimer<>("s1", t.plusSeconds(10)))),
                new BatchResult<>(2, false, List.of(), List.of(), t.plusSeconds(9), t, t.plusSeconds(20),
                        List.of(), List.of(new FiredTimer<>("s2", t.plusSeconds(40))))));
    }

    @Test
    void fiveThousandMutatedRunLinesGiveABatchPerLineOrAnErrorNamingTheLine() {
        String valid = RunResultJson.writeLines(run(), READINGS);
        assertThat(RunResultJson.readLines(valid, READINGS)).isEqualTo(run());
        fuzz("run files, one batch per line", valid, RunResultJsonFuzzTest::checkLines);
    }

    @Test
    void fiveThousandMutatedRunDocumentsGiveARunOrAnErrorNamingTheBatchOrPlace() {
        String valid = RunResultJson.write(run(), READINGS);
        assertThat(RunResultJson.read(valid, READINGS)).isEqualTo(run());
        fuzz("run documents", valid, input -> {
            try {
                RunResultJson.read(input, READINGS);
            } catch (IllegalArgumentException e) {
                assertThat(e.getMessage()).as(Mutations.show(input.getBytes(StandardCharsets.UTF_8)))
                        .isNotBlank().hasSizeLessThan(2000);
            }
        });
    }

    /** {@link #run()} with its last batch failed twice and a no-data batch failed without an error class or message. */
    static RunResult<String, Reading, Tuple2<String, Long>> failedRun() {
        Instant t = Instant.parse("2024-05-01T10:00:00Z");
        return new RunResult<>(run().batches(), List.of(
                new FailedBatch(3, true, 2, t.plusSeconds(12), t, t.plusSeconds(20), "TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR",
                        "poison row for key s1"),
                new FailedBatch(3, true, 2, t.plusSeconds(12), t, t.plusSeconds(20), "TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR",
                        "poison row for key s1"),
                new FailedBatch(4, false, 0, t.plusSeconds(30), t.plusSeconds(20), t.plusSeconds(25), null, null)));
    }

    @Test
    void fiveThousandMutatedRunFilesWithFailedBatchesGiveARunOrAnErrorNamingTheLine() {
        String valid = RunResultJson.writeLines(failedRun(), READINGS);
        assertThat(RunResultJson.readLines(valid, READINGS)).isEqualTo(failedRun());
        String document = RunResultJson.write(failedRun(), READINGS);
        assertThat(RunResultJson.read(document, READINGS)).isEqualTo(failedRun());
        fuzz("run files with failed batches, one batch per line", valid, RunResultJsonFuzzTest::checkLines);
        fuzz("run documents with failed batches", document, input -> {
            try {
                RunResultJson.read(input, READINGS);
            } catch (IllegalArgumentException e) {
                assertThat(e.getMessage()).as(Mutations.show(input.getBytes(StandardCharsets.UTF_8)))
                        .isNotBlank().hasSizeLessThan(2000);
            }
        });
    }

    private static void fuzz(String what, String valid, java.util.function.Consumer<String> check) {
        Mutations fuzz = Mutations.seeded(what);
        fuzz.run(Mutations.count(RUNS_PER_FORM), random -> {
            String input = new String(fuzz.mutate(valid.getBytes(StandardCharsets.UTF_8), random), StandardCharsets.UTF_8);
            return () -> check.accept(input);
        });
    }

    private static void checkLines(String input) {
        String[] lines = input.split("\r?\n", -1);
        String shown = Mutations.show(input.getBytes(StandardCharsets.UTF_8));
        try {
            RunResult<?, ?, ?> run = RunResultJson.readLines(input, READINGS);
            long batches = java.util.Arrays.stream(lines).filter(l -> !l.isBlank()).count();
            assertThat(run.batches().size() + run.failures().size()).as(shown).isEqualTo((int) batches);
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).as(shown).matches("line [1-9][0-9]*: .*").hasSizeLessThan(2000);
            int line = Integer.parseInt(e.getMessage().substring(5).split(":")[0]);
            assertThat(line).as(e.getMessage()).isBetween(1, lines.length);
        }
    }
}
