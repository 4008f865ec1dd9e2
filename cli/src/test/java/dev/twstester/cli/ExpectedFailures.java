package dev.twstester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What {@code replay --expect} does with a saved run's failed batches, for any folder and query. */
final class ExpectedFailures {
    private ExpectedFailures() {
    }

    /**
     * A saved run with a failed batch 3 that the replay of {@code folder} with {@code query} does not
     * have is one difference, named once; a malformed failed batch line is the reader's error naming
     * the file and line.
     */
    static void assertExpectComparesFailedBatches(Path dir, String folder, String query) throws IOException {
        // GIVEN a saved run in which batch 3 failed once before it committed (a line RunResultJson#writeLines writes)
        String saved = Cli.run("replay", folder, "--query", query, "--format", "json").out();
        Path failed = Files.writeString(dir.resolve("failed.jsonl"), saved + "{\"failedBatch\":{\"batchId\":3,\"hadInput\":true,\"rows\":1,\"batchTimestamp\":\"1970-01-01T00:00:00Z\",\"lateWatermark\":\"1970-01-01T00:00:00Z\",\"evictionWatermark\":\"1970-01-01T00:00:00Z\",\"errorClass\":\"TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR\",\"rootMessage\":\"poison\"}}\n");

        // WHEN replayed against it (no batch fails now) THEN exit 1 and the failed batches are the one difference
        Cli.Result r = Cli.run("replay", folder, "--query", query, "--expect", failed.toString());

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.DIFFERENCE);
        assertThat(r.out()).contains("""
                expected run %s differs from the simulator: 1 difference
                failed batches differ
                  simulator: []
                  expected: [FailedBatch[batchId=3, hadInput=true, rows=1, batchTimestamp=1970-01-01T00:00:00Z, \
                lateWatermark=1970-01-01T00:00:00Z, evictionWatermark=1970-01-01T00:00:00Z, \
                errorClass=TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR, rootMessage=poison]]
                """.formatted(failed));
        assertThat(r.err()).endsWith("twstester: expected run " + failed + " differs from the simulator"
                + " (1 difference, first in batch 3)\n");

        // WHEN the failed batch's line is malformed THEN the reader's error, with the file and line
        Path bad = Files.writeString(dir.resolve("bad.jsonl"), saved + "{\"failedBatch\":{\"batchId\":3,\"hadInput\":true,\"rows\":\"one\",\"batchTimestamp\":\"1970-01-01T00:00:00Z\",\"lateWatermark\":\"1970-01-01T00:00:00Z\",\"evictionWatermark\":\"1970-01-01T00:00:00Z\",\"errorClass\":\"TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR\",\"rootMessage\":\"poison\"}}\n");
        Cli.Result malformed = Cli.run("replay", folder, "--query", query, "--expect", bad.toString());
        assertThat(malformed.err()).contains(bad + ":" + (saved.split("\n").length + 1) + ": failed batch 3: \"rows\" is"
                + " \"one\"; write the number of rows the batch read, a whole number from 0; --expect reads what replay"
                + " --format json wrote");
    }
}
