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
import dev.twstester.RunResult;
import dev.twstester.samples.cart.CartWatch;

/**
 * {@code --format json} for a run that fails: stdout ends with one {@code failure} line (the exit
 * code, batch, key, error class, message, file and line or step), and a file whose rows all lack
 * the watermark column is a {@code warning} line before the first batch.
 */
class ReplayJsonFailureTest {
    static final String CART = ReplayCartStoryTest.CART;
    static final String SOLD_OUT = "dev.twstester.cli.fixtures.cart.SoldOutCart";

    @Test
    void aProcessorThatThrowsEndsTheJsonWithAFailureLine(@TempDir Path dir) throws IOException {
        Path cart = Cli.resource("cart");

        Cli.Result r = Cli.run("replay", cart.toString(), "--query", SOLD_OUT, "--format", "json");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.PROCESSOR_FAILED);
        List<String> lines = r.out().lines().toList();
        assertThat(lines).hasSize(5);
        assertThat(ReplayCartStoryTest.jsonLines(r.out()).subList(0, 4)).extracting(l -> l.get("batchId").asLong())
                .containsExactly(0L, 1L, 2L, 3L);
        String message = cart.resolve("003.jsonl") + ": batch 4: handleInputRows threw for key cy:"
                + " java.lang.IllegalStateException: lamps are sold out [TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR]";
        assertThat(lines.get(4)).isEqualTo("{\"failure\":{\"exitCode\":4,\"batchId\":4,\"key\":\"cy\","
                + "\"errorClass\":\"TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR\",\"message\":\"" + message + "\","
                + "\"file\":\"003.jsonl\",\"path\":\"" + cart.resolve("003.jsonl") + "\",\"line\":null,"
                + "\"step\":\"input 003.jsonl at=current\",\"stepFrom\":\"options\"}}");
        assertThat(r.err()).isEqualTo("twstester: replaying 3 files with " + SOLD_OUT + "#query on the simulator\n"
                + message + " (--stacktrace shows the stack trace)\n");

        // --expect reads the batches of the saved run and skips its failure line
        Path saved = Files.writeString(dir.resolve("run.jsonl"), r.out());
        RunResult<String, ?, ?> expected = ExpectedRun.read(saved, CartWatch.query());
        assertThat(expected.batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L, 2L, 3L);
    }

    @Test
    void aFailingPlanStepNamesThePlanLine(@TempDir Path dir) throws IOException {
        Cli.copy("cart", dir);
        Files.writeString(dir.resolve("scenario.txt"), """
                input 001.jsonl at=current
                input 002.jsonl at=current
                # the lamp
                input 003.jsonl at=current
                """);

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", SOLD_OUT, "--format", "json");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.PROCESSOR_FAILED);
        JsonNode failure = ReplayCartStoryTest.jsonLines(r.out()).get(4).get("failure");
        assertThat(failure.get("step").asText()).isEqualTo("input 003.jsonl at=current");
        assertThat(failure.get("stepFrom").asText()).isEqualTo(dir.resolve("scenario.txt") + ":4");
        assertThat(failure.get("file").asText()).isEqualTo("003.jsonl");
        assertThat(failure.get("batchId").asLong()).isEqualTo(4L);
    }

    @Test
    void anInvalidInputFileIsOneFailureLineWithFileAndLine(@TempDir Path dir) throws IOException {
        Cli.copy("cart", dir);
        Files.writeString(dir.resolve("002.jsonl"), """
                {"userId":"bo","event":"add","item":"scarf","ts":"2024-05-01T10:12:00Z"}
                {"userId":"bo","event":"checkout","ts":"2024-05-01T10:20:00Z"
                """);

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", CART, "--format", "json");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID_INPUT);
        String message = dir.resolve("002.jsonl") + ":2: not valid JSON at column 62: Unexpected end-of-input:"
                + " expected close marker for Object (Spark's JSON source would read a row of nulls); write one JSON"
                + " object per line, like {\\\"event\\\": ...,"
                + " \\\"item\\\": ..., \\\"ts\\\": ..., \\\"userId\\\": ...}";
        assertThat(r.out()).isEqualTo("{\"failure\":{\"exitCode\":3,\"batchId\":null,\"key\":null,\"errorClass\":null,"
                + "\"message\":\"" + message + "\",\"file\":\"002.jsonl\",\"path\":\"" + dir.resolve("002.jsonl")
                + "\",\"line\":2,\"step\":null,\"stepFrom\":null}}\n");
    }

    @Test
    void aUsageErrorInJsonFormatIsAFailureLineToo(@TempDir Path dir) {
        Cli.Result r = Cli.run("replay", Cli.resource("cart").toString(), "--query", CART, "--format", "json",
                "--plan", dir.resolve("plan.txt").toString());

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.out()).isEqualTo("{\"failure\":{\"exitCode\":2,\"batchId\":null,\"key\":null,\"errorClass\":null,"
                + "\"message\":\"--plan " + dir.resolve("plan.txt") + ": no such file\",\"file\":null,\"path\":null,"
                + "\"line\":null,\"step\":null,\"stepFrom\":null}}\n");
        assertThat(r.err()).isEqualTo("--plan " + dir.resolve("plan.txt") + ": no such file\n");
    }

    @Test
    void aWatermarkColumnMissingOnEveryRowOfAFileIsAWarningBeforeTheBatchesRun(@TempDir Path dir,
            @TempDir Path elsewhere) throws IOException {
        Cli.copy("cart", dir);
        Files.writeString(dir.resolve("003.jsonl"), """
                {"userId":"bo","event":"add","item":"hat","timestamp":"2024-05-01T10:09:00Z"}
                {"userId":"cy","event":"add","item":"lamp","timestamp":"2024-05-01T10:50:00Z"}
                """);
        Path file = dir.resolve("003.jsonl");
        String warning = "warning: the watermark column \"ts\" is missing or null on every row (2 rows): Spark's"
                + " watermark takes their event time as 1970-01-01, so none moves it, its late filter keeps them all,"
                + " and the processor gets null; check the field's name in the file (a field not in the schema has a"
                + " note on stderr)";

        Cli.Result json = Cli.run("replay", dir.toString(), "--query", CART, "--format", "json", "-q");

        assertThat(json.exitCode()).as(json.toString()).isEqualTo(ExitCodes.PROCESSOR_FAILED);
        List<String> lines = json.out().lines().toList();
        assertThat(lines).hasSize(6);
        assertThat(lines.get(0)).isEqualTo("{\"warning\":{\"file\":\"003.jsonl\",\"path\":\"" + file + "\","
                + "\"column\":\"ts\",\"rows\":2,\"message\":\"003.jsonl: " + warning.replace("\"", "\\\"") + "\"}}");
        assertThat(ReplayCartStoryTest.jsonLines(json.out()).subList(1, 5)).extracting(l -> l.get("batchId").asLong())
                .containsExactly(0L, 1L, 2L, 3L);
        assertThat(lines.get(5)).startsWith("{\"failure\":{\"exitCode\":4,\"batchId\":4,\"key\":\"bo\",\"errorClass\":"
                + "\"TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR\",\"message\":\"" + file + ": batch 4: handleInputRows"
                + " threw for key bo: java.lang.NullPointerException");
        assertThat(json.err()).startsWith(file + ":1: note: field \"timestamp\": unknown field; the fields are"
                + " [event, item, ts, userId]; Spark's JSON source ignores it, so does this replay\n"
                + "twstester: " + file + ": " + warning + "\n" + file + ": batch 4: handleInputRows threw for key bo:"
                + " java.lang.NullPointerException");

        // --expect skips the warning and failure lines
        // (not in the folder: it would be a fourth event file)
        Path saved = Files.writeString(elsewhere.resolve("run.jsonl"), json.out());
        assertThat(ExpectedRun.read(saved, CartWatch.query()).batches()).extracting(BatchResult::batchId)
                .containsExactly(0L, 1L, 2L, 3L);

        // text: the warning is on stderr, before the first batch runs
        Cli.Result text = Cli.run("replay", dir.toString(), "--query", CART, "-q");
        assertThat(text.exitCode()).as(text.toString()).isEqualTo(ExitCodes.PROCESSOR_FAILED);
        assertThat(text.out()).startsWith(ReplayCartStoryTest.header(CART + "#query") + "batch 0 (data, 001.jsonl)");
        assertThat(text.err()).contains("\ntwstester: " + file + ": " + warning + "\n" + file + ": batch 4:");
    }

    @Test
    void aWatermarkColumnWithAValueOnOneRowIsNoWarning(@TempDir Path dir) throws IOException {
        Cli.copy("cart", dir);
        Files.writeString(dir.resolve("003.jsonl"), """
                {"userId":"bo","event":"add","item":"hat","ts":null}
                {"userId":"cy","event":"add","item":"lamp","ts":"2024-05-01T10:50:00Z"}
                """);
        Files.writeString(dir.resolve("004.jsonl"), "");

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", CART, "--format", "json", "-q");

        assertThat(r.err()).as(r.toString()).doesNotContain("warning");
        assertThat(r.out()).doesNotContain("\"warning\"");
        // the row without ts still reaches the processor, which cannot handle it
        assertThat(r.exitCode()).isEqualTo(ExitCodes.PROCESSOR_FAILED);
        assertThat(r.out()).contains("\n{\"failure\":{\"exitCode\":4,\"batchId\":4,\"key\":\"bo\",");
    }
}
