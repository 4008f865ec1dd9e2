package dev.twstester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import dev.twstester.BatchResult;
import dev.twstester.FailedBatch;
import dev.twstester.RunResult;
import dev.twstester.samples.cart.CartWatch;

/**
 * A plan's {@code deploy} step after a failed batch: the replay reports the failure and goes on,
 * the deploy runs the failed batch again with the new version (same id, rows and time), and the
 * steps after it run; without a later start or deploy the replay ends at the failure (exit 4).
 */
class ReplayDeployTest {
    static final String SOLD_OUT = ReplayJsonFailureTest.SOLD_OUT;
    static final String FIXED = SOLD_OUT + "#lenient";

    /** The cart files; SoldOutCart fails 003.jsonl's batch 4 (cy adds a lamp). */
    private static Path cart(Path dir, String plan) throws IOException {
        Cli.copy("cart", dir);
        Files.writeString(dir.resolve("scenario.txt"), plan);
        return dir;
    }

    /** The cart files, a fourth file (dee adds a pen at 10:51) and {@code plan}. */
    static Path cartWithPen(Path dir, String plan) throws IOException {
        cart(dir, plan);
        Files.writeString(dir.resolve("004.jsonl"), "{\"userId\":\"dee\",\"event\":\"add\",\"item\":\"pen\","
                + "\"ts\":\"2024-05-01T10:51:00Z\"}\n");
        return dir;
    }

    /** The replay of {@code dir} with SoldOutCart, which must succeed, as JSON lines. */
    private static List<JsonNode> jsonLines(Path dir) throws IOException {
        Cli.Result r = Cli.run("replay", dir.toString(), "--query", SOLD_OUT, "--format", "json");
        assertThat(r.exitCode()).as(r.toString()).isZero();
        return ReplayCartStoryTest.jsonLines(r.out());
    }

    private static String failure(Path dir) {
        return dir.resolve("003.jsonl") + ": batch 4: handleInputRows threw for key cy:"
                + " java.lang.IllegalStateException: lamps are sold out [TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR]";
    }

    @Test
    void aDeployAfterTheFailedBatchRunsItAgainWithTheFixAndTheReplayGoesOn(@TempDir Path dir) throws IOException {
        cart(dir, """
                input 001.jsonl
                input 002.jsonl
                input 003.jsonl
                deploy %s
                """.formatted(FIXED));

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", SOLD_OUT);

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("batch 4 (data, 003.jsonl) FAILED: " + failure(dir) + "\n"
                + "  the query stopped; batch 4 stays in the offset log (2 rows, batch timestamp 1970-01-01T00:00:00Z):"
                + " the next start or deploy runs it again\n"
                + "deploy " + FIXED + ": the query stopped and this version started on its checkpoint (state, timers,"
                + " watermark and batch ids kept); its first trigger runs failed batch 4 again with it, at its"
                + " original time\n"
                + "batch 4 (data, deploy " + FIXED + ")\n"
                + "  rows in: 2, dropped late: 1\n"
                + "    {\"event\":\"add\",\"item\":\"hat\",\"ts\":\"2024-05-01T10:09:00Z\",\"userId\":\"bo\"}\n"
                + "  watermark: late 2024-05-01T10:10:00Z, eviction 2024-05-01T10:10:00Z\n"
                + "  batch timestamp: 1970-01-01T00:00:00Z\n");
        assertThat(r.out()).contains("batch 5 (no data, deploy " + FIXED + ")\n");
        // the fixed version keeps cy's cart: the lamp is in its state
        assertThat(r.out()).endsWith("keys with state: [cy]\n");
        assertThat(r.err()).doesNotContain("sold out");
    }

    @Test
    void jsonShowsTheFailedBatchTheDeployAndTheRerunAndExpectReadsThemBack(@TempDir Path dir) throws IOException {
        cart(dir, "input 001.jsonl\ninput 002.jsonl\ninput 003.jsonl\ndeploy " + FIXED + "\n");

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", SOLD_OUT, "--format", "json");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        List<JsonNode> lines = ReplayCartStoryTest.jsonLines(r.out());
        assertThat(lines).hasSize(8);
        JsonNode failed = lines.get(4);
        assertThat(failed.get("failedBatch").get("batchId").asLong()).isEqualTo(4);
        assertThat(failed.get("failedBatch").get("rows").asInt()).isEqualTo(2);
        assertThat(failed.get("failedBatch").get("rootMessage").asText()).isEqualTo("lamps are sold out");
        assertThat(failed.get("file").asText()).isEqualTo("003.jsonl");
        assertThat(failed.get("message").asText()).isEqualTo(failure(dir));
        assertThat(lines.get(5).toString()).isEqualTo("{\"deploy\":{\"version\":\"" + FIXED + "\",\"nextBatchId\":4,"
                + "\"rerun\":4}}");
        assertThat(lines.get(6).get("batchId").asLong()).isEqualTo(4);
        assertThat(lines.get(6).get("deploy").asText()).isEqualTo(FIXED);
        assertThat(lines.get(6).get("file").isNull()).isTrue();
        assertThat(lines.get(7).get("batchId").asLong()).isEqualTo(5);

        // --expect reads the failed batch and the rerun back, and the same replay matches it
        Path saved = Files.writeString(dir.resolve("_run.jsonl"), r.out());
        RunResult<String, ?, ?> expected = ExpectedRun.read(saved, CartWatch.query());
        assertThat(expected.batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
        assertThat(expected.failures()).extracting(FailedBatch::batchId).containsExactly(4L);
        Cli.Result again = Cli.run("replay", dir.toString(), "--query", SOLD_OUT, "--expect", saved.toString());
        assertThat(again.exitCode()).as(again.toString()).isZero();
    }

    @Test
    void expectFindsAMissingFailedBatch(@TempDir Path dir) throws IOException {
        cart(dir, "input 001.jsonl\ninput 002.jsonl\ninput 003.jsonl\ndeploy " + FIXED + "\n");
        Cli.Result failing = Cli.run("replay", dir.toString(), "--query", SOLD_OUT, "--format", "json");
        Cli.Result fixedAll = Cli.run("replay", dir.toString(), "--query", FIXED, "--format", "json");
        assertThat(fixedAll.exitCode()).as(fixedAll.toString()).isZero();

        // the lenient query never fails: against the run with the failed batch it differs there
        Path saved = Files.writeString(dir.resolve("_run.jsonl"), failing.out());
        Cli.Result r = Cli.run("replay", dir.toString(), "--query", FIXED, "--expect", saved.toString());

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.DIFFERENCE);
        assertThat(r.out()).contains("failed");
    }

    @Test
    void aRestartBeforeTheDeployFailsTheBatchAgainACrashLoop(@TempDir Path dir) throws IOException {
        cart(dir, """
                input 001.jsonl
                input 002.jsonl
                input 003.jsonl
                restart
                deploy %s
                """.formatted(FIXED));

        List<JsonNode> lines = jsonLines(dir);
        assertThat(lines.stream().filter(l -> l.has("failedBatch")).map(l -> l.get("failedBatch").get("batchId").asLong()))
                .containsExactly(4L, 4L);
        JsonNode second = lines.stream().filter(l -> l.has("failedBatch")).toList().get(1);
        assertThat(second.get("file").isNull()).isTrue();
        assertThat(second.get("message").asText()).startsWith("start (" + dir.resolve("scenario.txt") + ":4): batch 4:"
                + " handleInputRows threw for key cy");
        assertThat(lines.get(lines.size() - 2).get("deploy").asText()).isEqualTo(FIXED);
    }

    @Test
    void withoutALaterStartOrDeployTheReplayEndsAtTheFailedBatch(@TempDir Path dir) throws IOException {
        cart(dir, "input 001.jsonl\ninput 002.jsonl\ninput 003.jsonl\n");

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", SOLD_OUT);

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.PROCESSOR_FAILED);
        assertThat(r.out()).doesNotContain("FAILED");
        assertThat(r.err()).endsWith(failure(dir) + " (--stacktrace shows the stack trace)\n");
    }

    @Test
    void aCrashLoopToTheEndExitsWithTheLastFailure(@TempDir Path dir) throws IOException {
        cart(dir, "input 001.jsonl\ninput 002.jsonl\ninput 003.jsonl\nrestart\n");

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", SOLD_OUT);

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.PROCESSOR_FAILED);
        assertThat(r.out()).contains("batch 4 (data, 003.jsonl) FAILED: ");
        assertThat(r.err()).endsWith("start (" + dir.resolve("scenario.txt") + ":4): batch 4: handleInputRows threw"
                + " for key cy: java.lang.IllegalStateException: lamps are sold out"
                + " [TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR] (--stacktrace shows the stack trace)\n");
    }

    @Test
    void anInputWhileTheFailedBatchHasTheQueryDownEndsTheReplayWithThatFailure(@TempDir Path dir) throws IOException {
        cartWithPen(dir, "input 001.jsonl\ninput 002.jsonl\ninput 003.jsonl\ninput 004.jsonl\ndeploy " + FIXED + "\n");

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", SOLD_OUT);

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.PROCESSOR_FAILED);
        assertThat(r.err()).endsWith(failure(dir) + " (--stacktrace shows the stack trace)\n");
    }

    @Test
    void rowsAddedWhileDownFormTheBatchAfterTheRerun(@TempDir Path dir) throws IOException {
        cartWithPen(dir, "input 001.jsonl\ninput 002.jsonl\ninput 003.jsonl\nadd 004.jsonl\ndeploy " + FIXED + "\n");

        List<JsonNode> lines = jsonLines(dir);
        JsonNode deploy = lines.stream().filter(l -> l.path("deploy").isObject()).findFirst().orElseThrow();
        assertThat(deploy.get("deploy").get("waitingRows").asInt()).isEqualTo(1);
        List<JsonNode> afterDeploy = lines.subList(lines.indexOf(deploy) + 1, lines.size());
        assertThat(afterDeploy).extracting(l -> l.get("batchId").asLong() + ":" + l.get("input").size())
                .startsWith("4:2", "5:1");
    }

    @Test
    void aDeployOfAMissingMethodOrAnotherPlanIsAUsageError(@TempDir Path dir) throws IOException {
        cart(dir, "input 001.jsonl\ninput 002.jsonl\ninput 003.jsonl\ndeploy " + SOLD_OUT + "#nothing\n");

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", SOLD_OUT);

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).startsWith(dir.resolve("scenario.txt") + ": deploy " + SOLD_OUT + "#nothing: ");

        Files.writeString(dir.resolve("scenario.txt"), "input 001.jsonl\ninput 002.jsonl\ninput 003.jsonl\n"
                + "deploy " + ReplayProcessingTimeTest.SESSIONS + "\n");
        Cli.Result other = Cli.run("replay", dir.toString(), "--query", SOLD_OUT);
        assertThat(other.exitCode()).as(other.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(other.err()).contains(": its input, key and output encoders must be those of --query");
    }
}
