package dev.twstester.property;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.Scenario.AddData;
import dev.twstester.Scenario.Input;
import dev.twstester.Scenario.Start;
import dev.twstester.Scenario.Step;
import dev.twstester.Scenario.Stop;
import dev.twstester.Scenario.Tick;
import dev.twstester.TwsQuery;
import dev.twstester.io.ScenarioPlan;

class GenScenarioTest {
    private static final long T0 = Instant.parse("2024-01-01T00:00:00Z").toEpochMilli();

    private static Instant t(long ms) {
        return Instant.ofEpochMilli(ms);
    }

    private static List<GenEvent> events(GenEvent... events) {
        return List.of(events);
    }

    /** x@+30s, then a tick, then x@+20s and y@+20.001s at 6.5 s, then an empty batch. */
    private static GenScenario story() {
        return GenScenario.of(TimeMode.EventTime(), List.of(
                        new Input<>(events(new GenEvent("x", T0 + 30_000, 0)), null),
                        new Tick<>(t(5_000)),
                        new Input<>(events(new GenEvent("x", T0 + 20_000, 1), new GenEvent("y", T0 + 20_001, 0)), t(6_500)),
                        new Input<>(events(), null)))
                .withEventTimeBase(Instant.ofEpochMilli(T0))
                .withWatermarkDelay(Duration.ofSeconds(10))
                .withVariantNames(List.of("add", "checkout"));
    }

    /**
     * With a 1 s trigger: x@+30s added and read by the trigger at 1 s (the watermark moves to +20s),
     * a stop, x@+20s added while stopped, a tick past the pending trigger time, the start.
     */
    private static GenScenario triggered() {
        return GenScenario.of(TimeMode.EventTime(), List.<Step<GenEvent>>of(
                        new AddData<>(events(new GenEvent("x", T0 + 30_000, 0))),
                        new Tick<>(t(1_000)),
                        new Stop<>(),
                        new AddData<>(events(new GenEvent("x", T0 + 20_000, 1))),
                        new Tick<>(t(2_500)),
                        new Start<>()))
                .withEventTimeBase(Instant.ofEpochMilli(T0))
                .withWatermarkDelay(Duration.ofSeconds(10))
                .withVariantNames(List.of("add", "checkout"))
                .withTriggerInterval(Duration.ofSeconds(1));
    }

    @Test
    void describe_lists_every_step_with_utc_instants_and_offsets() {
        // GIVEN the JVM runs in Pacific/Kiritimati (surefire), WHEN describing, THEN every time is UTC
        assertThat(story().describe()).isEqualTo("""
                GenScenario: EventTime mode, watermark delay 10s, event-time base 2024-01-01T00:00:00Z; 4 steps, 3 events
                  1. input, 1 event, at the current processing time 1970-01-01T00:00:00Z
                       x @ 2024-01-01T00:00:30Z (base+30s) add
                  2. tick to 1970-01-01T00:00:05Z (clock +5s)
                  3. input, 2 events, at 1970-01-01T00:00:06.500Z (clock +1.5s)
                       x @ 2024-01-01T00:00:20Z (base+20s) checkout
                       y @ 2024-01-01T00:00:20.001Z (base+20.001s) add
                  4. input, no events, at the current processing time 1970-01-01T00:00:06.500Z""");
        assertThat(story().toString()).isEqualTo(story().describe());
        assertThat(story().eventCount()).isEqualTo(3);
        assertThat(story().events(2)).containsExactly(new GenEvent("x", T0 + 20_000, 1), new GenEvent("y", T0 + 20_001, 0));
        assertThat(story().events(1)).isEmpty();
    }

    @Test
    void describe_shows_adds_stops_starts_and_where_ticks_land_against_the_trigger_interval() {
        assertThat(triggered().describe()).isEqualTo("""
                GenScenario: EventTime mode, watermark delay 10s, trigger interval 1s, event-time base 2024-01-01T00:00:00Z; 6 steps, 2 events, 1 restart
                  1. add 1 event to the source
                       x @ 2024-01-01T00:00:30Z (base+30s) add
                  2. tick to 1970-01-01T00:00:01Z (clock +1s, a multiple of the interval)
                  3. stop (nothing runs until the start; rows added wait)
                  4. add 1 event to the source
                       x @ 2024-01-01T00:00:20Z (base+20s) checkout
                  5. tick to 1970-01-01T00:00:02.500Z (clock +1.5s, between multiples of the interval)
                  6. start from the checkpoint (state, timers and watermark kept; its first trigger runs now)""");
        assertThat(triggered().restartCount()).isEqualTo(1);
        assertThat(triggered().eventCount()).isEqualTo(2);
    }

    @Test
    void to_scenario_maps_every_step_to_the_same_scenario_step_with_rows() {
        assertThat(story().toScenario(ProbeEvent::of).steps()).containsExactly(
                new Input<>(List.of(new ProbeEvent("x", T0 + 30_000, "add")), null),
                new Tick<>(t(5_000)),
                new Input<>(List.of(new ProbeEvent("x", T0 + 20_000, "checkout"), new ProbeEvent("y", T0 + 20_001, "add")),
                        t(6_500)),
                new Input<>(List.of(), null));
        assertThat(triggered().toScenario(ProbeEvent::of).steps()).containsExactly(
                new AddData<>(List.of(new ProbeEvent("x", T0 + 30_000, "add"))),
                new Tick<>(t(1_000)),
                new Stop<>(),
                new AddData<>(List.of(new ProbeEvent("x", T0 + 20_000, "checkout"))),
                new Tick<>(t(2_500)),
                new Start<>());
        assertThat(triggered().scenario().steps()).isEqualTo(triggered().steps());
    }

    @Test
    void the_simulator_runs_the_triggered_story_the_start_reads_the_row_added_while_stopped() {
        RunResult<String, ProbeEvent, String> run = ProbeProcessor.run(triggered());

        // batch 0 at the trigger at 1 s; the no-data batch due at 2 s is skipped by the stop; the
        // start's trigger at 2.5 s reads x@+20s, compared with the watermark before batch 0 (0)
        assertThat(run.batches()).extracting(BatchResult::batchTimestamp).containsExactly(t(1_000), t(2_500));
        assertThat(run.batches().get(1).droppedLate()).isEmpty();
        assertThat(run.batches().get(1).evictionWatermark()).isEqualTo(t(T0 + 20_000));
        assertThat(run.outputs()).containsExactly("x:add:1", "x:checkout:2");
    }

    @Test
    void rejects_steps_that_cannot_run() {
        assertThatThrownBy(() -> GenScenario.of(TimeMode.ProcessingTime(), List.of(new Input<>(events(), null))))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("step 1: in ProcessingTime mode every input needs"
                        + " a processing time (at): live Spark runs a batch only on a clock move");
        assertThatThrownBy(() -> GenScenario.of(TimeMode.ProcessingTime(), List.of(new Input<>(events(), t(1000)),
                        new Tick<>(t(1000)))))
                .hasMessageStartingWith("step 2: processing time 1970-01-01T00:00:01Z is not after").hasMessageContaining("strictly later");
        assertThatThrownBy(() -> GenScenario.of(TimeMode.EventTime(), List.of(new Tick<>(t(1000)), new Input<>(events(), t(999)))))
                .hasMessageContaining("step 2").hasMessageContaining("never moves backwards");
        assertThatThrownBy(() -> GenScenario.of(TimeMode.None(), List.of(new Start<>())))
                .hasMessage("step 1: start while the query runs; a stop must come first");
        assertThatThrownBy(() -> GenScenario.of(TimeMode.None(), List.of(new Stop<>(), new Stop<>())))
                .hasMessage("step 2: stop while the query is stopped; a start must come first");
        assertThatThrownBy(() -> GenScenario.of(TimeMode.None(), List.of(new Stop<>(), new Input<>(events(), null))))
                .hasMessage("step 2: an input batch while the query is stopped; add the rows (AddData) or start it first");
        assertThatThrownBy(() -> story().withTriggerInterval(Duration.ofSeconds(5)))
                .hasMessage("step 1: an input step with a trigger interval of 5s: rows arrive by AddData steps and ticks"
                        + " reach the triggers that run them");
        assertThatThrownBy(() -> triggered().withTriggerInterval(Duration.ofNanos(1)))
                .hasMessageContaining("whole milliseconds");
        // equal times are fine outside ProcessingTime mode; adds and ticks while stopped are fine; a
        // zero interval takes any valid steps
        assertThat(GenScenario.of(TimeMode.EventTime(), List.of(new Tick<>(t(1000)), new Input<>(events(), t(1000))))
                .steps()).hasSize(2);
        assertThat(triggered().withTriggerInterval(Duration.ZERO).steps()).hasSize(6);
        assertThat(story().withTriggerInterval(Duration.ZERO).triggerInterval()).hasValue(Duration.ZERO);
    }

    @Test
    void shuffle_partitions_and_the_trigger_interval_are_applied_to_the_query() {
        TwsQuery<String, ProbeEvent, String> query = ProbeProcessor.query(TimeMode.EventTime(), Duration.ofSeconds(10));
        assertThat(story().applyTo(query)).isSameAs(query);

        TwsQuery<String, ProbeEvent, String> applied = triggered().withShufflePartitions(3).applyTo(query);
        assertThat(applied.shufflePartitions()).isEqualTo(3);
        assertThat(applied.triggerIntervalMs()).isEqualTo(1000);
        assertThat(story().withTriggerInterval(Duration.ZERO).applyTo(query).triggerIntervalMs()).isZero();

        GenScenario s = story().withShufflePartitions(3);
        assertThat(story().shufflePartitions()).isEmpty();
        assertThat(s.shufflePartitions()).hasValue(3);
        assertThat(s).isNotEqualTo(story()).isEqualTo(story().withShufflePartitions(3));
        assertThat(triggered()).isNotEqualTo(triggered().withTriggerInterval(Duration.ofSeconds(2)));
        assertThat(s.withSteps(s.steps()).shufflePartitions()).hasValue(3);
        assertThat(s.describe()).startsWith("GenScenario: EventTime mode, watermark delay 10s, 3 shuffle partitions, "
                + "event-time base 2024-01-01T00:00:00Z; 4 steps, 3 events\n");
        assertThat(story().withShufflePartitions(1).describe()).contains(", 1 shuffle partition, ");
        assertThatThrownBy(() -> story().withShufflePartitions(0)).hasMessageContaining("at least 1 partition");
    }

    @Test
    void write_batch_files_writes_one_jsonl_per_input_and_add_and_a_plan_that_reads_back(@TempDir Path dir)
            throws IOException {
        // GIVEN a stale batch file from an earlier, longer scenario
        Files.writeString(dir.resolve("007.jsonl"), "{}\n");
        Files.writeString(dir.resolve("notes.jsonl"), "kept\n");
        GenScenario s = triggered().withShufflePartitions(3);

        List<Path> files = s.writeBatchFiles(dir, ProbeEvent::toJson, ProbeEvent::of);

        assertThat(files).containsExactly(dir.resolve("001.jsonl"), dir.resolve("002.jsonl"));
        assertThat(Files.readString(dir.resolve("001.jsonl")))
                .isEqualTo("{\"key\":\"x\",\"ts\":" + (T0 + 30_000) + ",\"kind\":\"add\"}\n");
        assertThat(Files.readString(dir.resolve("002.jsonl")))
                .isEqualTo("{\"key\":\"x\",\"ts\":" + (T0 + 20_000) + ",\"kind\":\"checkout\"}\n");
        try (Stream<Path> list = Files.list(dir)) {
            assertThat(list.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("001.jsonl", "002.jsonl", "notes.jsonl", "scenario.txt");
        }
        assertThat(Files.readString(dir.resolve("scenario.txt"))).isEqualTo("""
                # replay plan: one line per step, in order; input files hold one JSON row per line
                # shuffle partitions: 3 (run the query with withShufflePartitions(3); replay with --shuffle-partitions 3)
                # trigger interval: 1s (run the query with withTrigger(Trigger.ProcessingTime(1000)); replay with --trigger-interval PT1S)
                add 001.jsonl
                tick to=1970-01-01T00:00:01Z
                stop
                add 002.jsonl
                tick to=1970-01-01T00:00:02.500Z
                start

                """ + s.describe() + "\n");

        // WHEN the plan is read back THEN it gives the same scenario
        ScenarioPlan plan = ScenarioPlan.read(dir.resolve("scenario.txt"));
        Scenario<String> back = plan.toScenario(file -> readLines(file));
        Scenario<String> expected = triggered().toScenario((key, ms, variant) -> ProbeEvent.of(key, ms, variant).toJson());
        assertThat(back).isEqualTo(expected);
    }

    @Test
    void write_batch_files_writes_inputs_with_their_times(@TempDir Path dir) throws IOException {
        List<Path> files = story().writeBatchFiles(dir, ProbeEvent::toJson, ProbeEvent::of);

        assertThat(files).containsExactly(dir.resolve("001.jsonl"), dir.resolve("002.jsonl"), dir.resolve("003.jsonl"));
        assertThat(Files.readAllLines(dir.resolve("002.jsonl"))).containsExactly(
                "{\"key\":\"x\",\"ts\":" + (T0 + 20_000) + ",\"kind\":\"checkout\"}",
                "{\"key\":\"y\",\"ts\":" + (T0 + 20_001) + ",\"kind\":\"add\"}");
        assertThat(dir.resolve("003.jsonl")).isEmptyFile();
        assertThat(Files.readString(dir.resolve("scenario.txt"))).startsWith("""
                # replay plan: one line per step, in order; input files hold one JSON row per line
                input 001.jsonl at=current
                tick to=1970-01-01T00:00:05Z
                input 002.jsonl at=1970-01-01T00:00:06.500Z
                input 003.jsonl at=current

                GenScenario: EventTime mode""");
    }

    private static List<String> readLines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void write_batch_files_rejects_json_with_line_breaks(@TempDir Path dir) {
        assertThatThrownBy(() -> story().writeBatchFiles(dir, (ProbeEvent e) -> "{\n}", ProbeEvent::of))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("one JSON object on one line");
    }
}
