package dev.twstester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.io.EncoderRows;
import dev.twstester.io.JsonLines;
import dev.twstester.io.RunResultJson;
import dev.twstester.io.ScenarioPlan;
import dev.twstester.samples.cart.CartAlert;
import dev.twstester.samples.cart.CartEvent;
import dev.twstester.samples.cart.CartWatch;
import dev.twstester.sim.TwsSimulator;

/**
 * {@code --trigger-interval} and the plan's {@code add}, {@code stop} and {@code start} steps: a
 * replay gives what the simulator gives for the same steps with the same trigger (checked with
 * {@code --expect} against the simulator's own run).
 */
class ReplayTriggerTest {
    static final String CART = ReplayCartStoryTest.CART;

    private static Instant t(String hhmmss) {
        return Instant.parse("1970-01-01T" + hhmmss + "Z");
    }

    /** The cart file's rows, read as the replay reads them. */
    private static List<CartEvent> rows(Path file) {
        EncoderRows<CartEvent> codec = EncoderRows.of(CartWatch.query().inputEncoder());
        return JsonLines.of(codec, note -> { }).read(file);
    }

    /** Runs {@code steps} on the simulator with {@code query} and saves the run as {@code --expect} reads it. */
    private static Path expected(Path dir, TwsQuery<String, CartEvent, CartAlert> query, Scenario<CartEvent> steps)
            throws IOException {
        RunResult<String, CartEvent, CartAlert> run = new TwsSimulator<>(query).run(steps);
        Path file = dir.resolve("_expected.jsonl");
        Files.writeString(file, RunResultJson.writeLines(run, query));
        return file;
    }

    @Test
    void a_replay_with_a_trigger_interval_and_at_and_tick_options_gives_the_simulator_s_run(@TempDir Path dir)
            throws IOException {
        Path cart = Cli.resource("cart");
        TwsQuery<String, CartEvent, CartAlert> query = CartWatch.query().withTrigger(Trigger.ProcessingTime(60_000));
        Scenario<CartEvent> steps = Scenario.<CartEvent>builder()
                .batchAt(t("00:01:00"), rows(cart.resolve("001.jsonl")))
                .tick(t("00:01:30"))
                .batchAt(t("00:03:00"), rows(cart.resolve("002.jsonl")))
                .tick(t("00:04:00"))
                .batchAt(t("00:05:00"), rows(cart.resolve("003.jsonl")))
                .tick(t("00:07:00"))
                .build();
        Path expected = expected(dir, query, steps);
        String[] options = {"--at", "001.jsonl=1970-01-01T00:01:00Z", "--at", "002.jsonl=1970-01-01T00:03:00Z",
            "--at", "003.jsonl=1970-01-01T00:05:00Z", "--tick", "1970-01-01T00:01:30Z", "--tick",
            "1970-01-01T00:04:00Z", "--tick", "1970-01-01T00:07:00Z", "--expect", expected.toString()};

        Cli.Result r = Cli.run(concat(new String[] {"replay", cart.toString(), "--query", CART, "--trigger-interval", "1m"},
                options));

        // THEN the same batches as the simulator's, and the text says why the 00:01:30 tick ran nothing
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).startsWith("replay of 3 files with " + CART + "#query: EventTime mode, Update output,"
                + " watermark on ts with delay PT10M, trigger interval PT1M. Times in UTC.\n");
        assertThat(r.out()).contains("tick to 1970-01-01T00:01:30Z: no batch (no trigger: the next one runs at"
                + " 1970-01-01T00:02:00Z)\n");
        // the no-data batch after batch 0 is due at 00:02 and replaced by file 2's data batch at 00:03
        RunResult<String, CartEvent, CartAlert> simulated = new TwsSimulator<>(query).run(steps);
        assertThat(simulated.batches()).extracting(BatchResult::batchTimestamp).startsWith(t("00:01:00"), t("00:03:00"));
        assertThat(simulated.batches().get(1).hadInput()).isTrue();

        // WHEN the same files replay with the query's own trigger (0) THEN the run differs
        Cli.Result zero = Cli.run(concat(new String[] {"replay", cart.toString(), "--query", CART}, options));
        assertThat(zero.exitCode()).as(zero.toString()).isEqualTo(ExitCodes.DIFFERENCE);
    }

    @Test
    void a_no_data_batch_the_replay_ends_before_is_reported_with_the_tick_that_runs_it() {
        Path cart = Cli.resource("cart");

        Cli.Result text = Cli.run("replay", cart.toString(), "--query", CART, "--trigger-interval", "1m", "-q");
        Cli.Result json = Cli.run("replay", cart.toString(), "--query", CART, "--trigger-interval", "1m", "-q",
                "--format", "json");
        Cli.Result ticked = Cli.run("replay", cart.toString(), "--query", CART, "--trigger-interval", "1m", "-q",
                "--tick", "1970-01-01T00:04:00Z");

        // each file runs at the next minute; the last one moved the watermark to 10:40, whose no-data
        // batch (ana's 10:35 timer) would run at 00:04
        assertThat(text.exitCode()).as(text.toString()).isZero();
        assertThat(text.out()).endsWith("pending: the last batch moved the watermark; its no-data batch (timers up to "
                + "2024-05-01T10:40:00Z) runs at the next trigger, 1970-01-01T00:04:00Z, which this replay does not "
                + "reach; add --tick 1970-01-01T00:04:00Z to run it\n");
        assertThat(json.out()).endsWith("{\"pendingNoDataBatch\":{\"at\":\"1970-01-01T00:04:00Z\","
                + "\"watermark\":\"2024-05-01T10:40:00Z\"}}\n");
        assertThat(ticked.out()).doesNotContain("pending:").contains("timers fired: ana@2024-05-01T10:35:00Z");
    }

    @Test
    void a_plan_with_adds_a_stop_and_a_start_replays_as_the_simulator_runs_it(@TempDir Path dir) throws IOException {
        Cli.copy("cart", dir);
        Files.writeString(dir.resolve("scenario.txt"), """
                # the cart story with a 1 minute trigger, a stop and rows added while stopped
                add 001.jsonl
                tick to=1970-01-01T00:01:00Z
                stop
                add 002.jsonl
                tick to=1970-01-01T00:02:30Z
                start
                add 003.jsonl
                tick to=1970-01-01T00:03:00Z
                tick to=1970-01-01T00:04:00Z
                """);
        TwsQuery<String, CartEvent, CartAlert> query = CartWatch.query().withTrigger(Trigger.ProcessingTime(60_000));
        Scenario<CartEvent> steps = ScenarioPlan.read(dir.resolve("scenario.txt")).toScenario(ReplayTriggerTest::rows);
        Path expected = expected(dir, query, steps);

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", CART, "--trigger-interval", "PT1M",
                "--expect", expected.toString());

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains(
                "add 001.jsonl: 3 rows wait in the source, 3 in all (the next trigger runs at 1970-01-01T00:01:00Z)\n",
                "batch 0 (data, tick to 1970-01-01T00:01:00Z)",
                "stop: the query stopped at 1970-01-01T00:01:00Z (state, timers, watermark and batch ids kept); nothing"
                        + " runs until its start, rows added wait, a pending no-data batch is skipped\n",
                "add 002.jsonl: 2 rows wait in the source, 2 in all (the query is stopped: its start reads them)\n",
                "tick to 1970-01-01T00:02:30Z: no batch (the query is stopped: nothing runs until its start)\n",
                "restart: the query restarted from its checkpoint (state, timers, watermark 2024-05-01T09:58:00Z and batch"
                        + " ids kept; a fresh processor ran init/close on the driver); its first trigger reads the 2 rows"
                        + " waiting in the source (batch 1)\n",
                "batch 1 (data, start)",
                "add 003.jsonl: 2 rows wait in the source, 2 in all (the next trigger runs at 1970-01-01T00:03:00Z)\n",
                "batch 2 (data, tick to 1970-01-01T00:03:00Z)",
                // the rows added while stopped are compared with batch 0's watermark (0), the next with 09:58
                "batch 3 (no data, tick to 1970-01-01T00:04:00Z)");

        Cli.Result json = Cli.run("replay", dir.toString(), "--query", CART, "--trigger-interval", "1m", "--format", "json");
        assertThat(json.exitCode()).as(json.toString()).isZero();
        List<String> lines = json.out().lines().toList();
        assertThat(lines.get(1)).isEqualTo("{\"stop\":{\"processingTime\":\"1970-01-01T00:01:00Z\"}}");
        assertThat(lines.get(2)).isEqualTo("{\"restart\":{\"nextBatchId\":1,\"watermark\":\"2024-05-01T09:58:00Z\","
                + "\"processingTime\":\"1970-01-01T00:02:30Z\",\"waitingRows\":2}}");
        assertThat(lines.get(3)).contains("\"batchId\":1,").contains("\"file\":null,\"start\":true");
    }

    @Test
    void an_input_time_on_which_no_trigger_runs_is_a_usage_error_naming_the_plan_line(@TempDir Path dir)
            throws IOException {
        Cli.copy("cart", dir);
        Files.writeString(dir.resolve("scenario.txt"), """
                input 001.jsonl at=1970-01-01T00:01:00Z
                input 002.jsonl at=1970-01-01T00:01:30Z
                input 003.jsonl
                """);

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", CART, "--trigger-interval", "1m");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).endsWith("\n002.jsonl at 1970-01-01T00:01:30Z (" + dir.resolve("scenario.txt") + ":2): no"
                + " trigger runs then; with a trigger interval of PT1M the next one runs at 1970-01-01T00:02:00Z: give"
                + " that time or a later one, or at=current for the next trigger\n");
    }

    @Test
    void a_tick_back_in_time_is_a_usage_error_naming_the_plan_line(@TempDir Path dir) throws IOException {
        Cli.copy("cart", dir);
        Files.writeString(dir.resolve("scenario.txt"), """
                add 001.jsonl
                tick to=1970-01-01T00:02:00Z
                # rows of the second file
                add 002.jsonl
                tick to=1970-01-01T00:01:00Z
                add 003.jsonl
                """);

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", CART, "--trigger-interval", "1m");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("tick to 1970-01-01T00:01:00Z is before tick to 1970-01-01T00:02:00Z ("
                + dir.resolve("scenario.txt") + ":5); processing time never moves backwards\n");
    }

    @Test
    void a_trigger_interval_that_is_not_a_duration_is_a_usage_error() {
        String cart = Cli.resource("cart").toString();
        for (String bad : new String[] {"soon", "5", "-1s", "PT0.0001S"}) {
            Cli.Result r = Cli.run("replay", cart, "--query", CART, "--trigger-interval", bad);
            assertThat(r.exitCode()).as(bad).isEqualTo(ExitCodes.USAGE);
            assertThat(r.err()).as(bad).startsWith("Invalid value for option '--trigger-interval': '" + bad + "' ");
        }
        Cli.Result zero = Cli.run("replay", cart, "--query", CART, "--trigger-interval", "0");
        assertThat(zero.exitCode()).as(zero.toString()).isZero();
        assertThat(zero.out()).isEqualTo(Cli.run("replay", cart, "--query", CART).out());
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
