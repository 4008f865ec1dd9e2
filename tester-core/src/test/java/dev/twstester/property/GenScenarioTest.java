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

import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.property.GenScenario.Input;
import dev.twstester.property.GenScenario.Restart;
import dev.twstester.property.GenScenario.Tick;

class GenScenarioTest {
    private static final long T0 = Instant.parse("2024-01-01T00:00:00Z").toEpochMilli();

    /** x@+30s, then a tick, then x@+20s (= watermark 30s-10s: dropped), y@+20.001s (kept), then nothing. */
    private static GenScenario story() {
        return GenScenario.of(TimeMode.EventTime(), List.of(
                        new Input(List.of(new GenEvent("x", T0 + 30_000, 0)), null),
                        new Tick(5_000),
                        new Input(List.of(new GenEvent("x", T0 + 20_000, 1), new GenEvent("y", T0 + 20_001, 0)), 6_500L),
                        new Input(List.of(), null)))
                .withEventTimeBase(Instant.ofEpochMilli(T0))
                .withWatermarkDelay(Duration.ofSeconds(10))
                .withVariantNames(List.of("add", "checkout"));
    }

    @Test
    void describe_lists_every_step_with_utc_instants_offsets_and_late_rows() {
        // GIVEN the JVM runs in Pacific/Kiritimati (surefire), WHEN describing, THEN every time is UTC
        assertThat(story().describe()).isEqualTo("""
                GenScenario: EventTime mode, watermark delay 10s, event-time base 2024-01-01T00:00:00Z; 4 steps, 3 events
                  1. input, 1 event, at the current processing time 1970-01-01T00:00:00Z; late watermark 1970-01-01T00:00:00Z (initial)
                       x @ 2024-01-01T00:00:30Z (base+30s) add
                  2. tick to 1970-01-01T00:00:05Z (clock +5s)
                  3. input, 2 events, at 1970-01-01T00:00:06.500Z (clock +1.5s); late watermark 2024-01-01T00:00:20Z (base+20s)
                       x @ 2024-01-01T00:00:20Z (base+20s) checkout  -- dropped late (= watermark)
                       y @ 2024-01-01T00:00:20.001Z (base+20.001s) add
                  4. input, no events, at the current processing time 1970-01-01T00:00:06.500Z; late watermark 2024-01-01T00:00:20Z (base+20s)""");
    }

    @Test
    void the_watermark_model_follows_max_event_time_minus_delay() {
        GenScenario s = story();
        assertThat(s.lateWatermarkMs(0)).isZero();
        assertThat(s.lateWatermarkMs(2)).isEqualTo(T0 + 20_000);
        assertThat(s.isDroppedLate(2, s.inputEvents(2).get(0))).isTrue();
        assertThat(s.isDroppedLate(2, s.inputEvents(2).get(1))).isFalse();
        assertThat(s.processingTimeMs(3)).isEqualTo(6_500);
        assertThat(s.eventCount()).isEqualTo(3);
        // no late filtering outside EventTime mode
        GenScenario none = GenScenario.of(TimeMode.None(), s.steps()).withWatermarkDelay(Duration.ofSeconds(10));
        assertThat(none.isDroppedLate(2, s.inputEvents(2).get(0))).isFalse();
    }

    @Test
    void to_scenario_maps_inputs_times_and_ticks() {
        Scenario<ProbeEvent> scenario = story().toScenario(ProbeEvent::of);
        assertThat(scenario.steps()).containsExactly(
                new Scenario.Input<>(List.of(new ProbeEvent("x", T0 + 30_000, "add")), null),
                new Scenario.Tick<>(Instant.ofEpochMilli(5_000)),
                new Scenario.Input<>(List.of(new ProbeEvent("x", T0 + 20_000, "checkout"),
                        new ProbeEvent("y", T0 + 20_001, "add")), Instant.ofEpochMilli(6_500)),
                new Scenario.Input<>(List.of(), null));
    }

    @Test
    void rejects_processing_time_scenarios_without_strictly_increasing_times() {
        assertThatThrownBy(() -> GenScenario.of(TimeMode.ProcessingTime(), List.of(new Input(List.of(), null))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs a processing time (atMs)");
        assertThatThrownBy(() -> GenScenario.of(TimeMode.ProcessingTime(), List.of(new Input(List.of(), 1000L), new Tick(1000))))
                .hasMessageContaining("step 2").hasMessageContaining("strictly later");
        assertThatThrownBy(() -> GenScenario.of(TimeMode.EventTime(), List.of(new Tick(1000), new Input(List.of(), 999L))))
                .hasMessageContaining("never moves backwards");
        // equal times are fine outside ProcessingTime mode
        assertThat(GenScenario.of(TimeMode.EventTime(), List.of(new Tick(1000), new Input(List.of(), 1000L))).steps()).hasSize(2);
    }

    @Test
    void write_batch_files_writes_one_jsonl_per_input_and_a_replay_plan(@TempDir Path dir) throws IOException {
        // GIVEN a stale batch file from an earlier, longer scenario
        Files.writeString(dir.resolve("007.jsonl"), "{}\n");
        Files.writeString(dir.resolve("notes.jsonl"), "kept\n");

        List<Path> files = story().writeBatchFiles(dir, ProbeEvent::toJson, ProbeEvent::of);

        assertThat(files).containsExactly(dir.resolve("001.jsonl"), dir.resolve("002.jsonl"), dir.resolve("003.jsonl"));
        assertThat(Files.readString(dir.resolve("001.jsonl")))
                .isEqualTo("{\"key\":\"x\",\"ts\":" + (T0 + 30_000) + ",\"kind\":\"add\"}\n");
        assertThat(Files.readAllLines(dir.resolve("002.jsonl"))).containsExactly(
                "{\"key\":\"x\",\"ts\":" + (T0 + 20_000) + ",\"kind\":\"checkout\"}",
                "{\"key\":\"y\",\"ts\":" + (T0 + 20_001) + ",\"kind\":\"add\"}");
        assertThat(dir.resolve("003.jsonl")).isEmptyFile();
        try (Stream<Path> list = Files.list(dir)) {
            assertThat(list.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("001.jsonl", "002.jsonl", "003.jsonl", "notes.jsonl", "scenario.txt");
        }
        String text = Files.readString(dir.resolve("scenario.txt"));
        assertThat(text).startsWith("""
                # replay plan: one line per step, in order; input files hold one JSON row per line
                input 001.jsonl at=current
                tick to=1970-01-01T00:00:05Z
                input 002.jsonl at=1970-01-01T00:00:06.500Z
                input 003.jsonl at=current

                """).contains(story().describe());
    }

    @Test
    void write_batch_files_rejects_json_with_line_breaks(@TempDir Path dir) {
        assertThatThrownBy(() -> story().writeBatchFiles(dir, (ProbeEvent e) -> "{\n}", ProbeEvent::of))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("one JSON object on one line");
    }

    /** x@+30s, a restart, a tick to 5s, a restart, x@+20s (dropped: the watermark survives restarts). */
    private static GenScenario restartStory() {
        return GenScenario.of(TimeMode.EventTime(), List.of(
                        new Input(List.of(new GenEvent("x", T0 + 30_000, 0)), null),
                        new Restart(),
                        new Tick(5_000),
                        new Restart(),
                        new Input(List.of(new GenEvent("x", T0 + 20_000, 1)), null)))
                .withEventTimeBase(Instant.ofEpochMilli(T0))
                .withWatermarkDelay(Duration.ofSeconds(10))
                .withVariantNames(List.of("add", "checkout"));
    }

    @Test
    void describe_shows_restarts_as_steps_and_counts_them() {
        assertThat(restartStory().describe()).isEqualTo("""
                GenScenario: EventTime mode, watermark delay 10s, event-time base 2024-01-01T00:00:00Z; 5 steps, 2 events, 2 restarts
                  1. input, 1 event, at the current processing time 1970-01-01T00:00:00Z; late watermark 1970-01-01T00:00:00Z (initial)
                       x @ 2024-01-01T00:00:30Z (base+30s) add
                  2. restart from the checkpoint (state, timers and watermark kept; no batch before the next input)
                  3. tick to 1970-01-01T00:00:05Z (clock +5s)
                  4. restart from the checkpoint (state, timers and watermark kept; no batch before the next input)
                  5. input, 1 event, at the current processing time 1970-01-01T00:00:05Z; late watermark 2024-01-01T00:00:20Z (base+20s)
                       x @ 2024-01-01T00:00:20Z (base+20s) checkout  -- dropped late (= watermark)""");
        assertThat(restartStory().toString()).isEqualTo(restartStory().describe());
        assertThat(restartStory().restartCount()).isEqualTo(2);
    }

    @Test
    void a_restart_keeps_the_clock_and_the_watermark_model_and_becomes_a_scenario_restart() {
        GenScenario s = restartStory();
        assertThat(s.processingTimeMs(3)).isEqualTo(5_000);
        assertThat(s.inputEvents(1)).isEmpty();
        assertThat(s.lateWatermarkMs(4)).isEqualTo(T0 + 20_000);
        assertThat(s.toScenario(ProbeEvent::of).steps()).containsExactly(
                new Scenario.Input<>(List.of(new ProbeEvent("x", T0 + 30_000, "add")), null),
                new Scenario.Stop<>(), new Scenario.Start<>(),
                new Scenario.Tick<>(Instant.ofEpochMilli(5_000)),
                new Scenario.Stop<>(), new Scenario.Start<>(),
                new Scenario.Input<>(List.of(new ProbeEvent("x", T0 + 20_000, "checkout")), null));
        // the simulator agrees with the model: the restarted query still drops x@+20s
        assertThat(ProbeProcessor.run(s).droppedLate()).containsExactly(new ProbeEvent("x", T0 + 20_000, "checkout"));
    }

    @Test
    void a_restart_needs_no_processing_time_even_in_processing_time_mode() {
        GenScenario s = GenScenario.of(TimeMode.ProcessingTime(),
                List.of(new Input(List.of(), 1000L), new Restart(), new Tick(2000), new Input(List.of(), 3000L)));
        assertThat(s.steps()).hasSize(4);
        assertThatThrownBy(() -> GenScenario.of(TimeMode.ProcessingTime(),
                        List.of(new Input(List.of(), 1000L), new Restart(), new Tick(1000))))
                .hasMessageContaining("step 3").hasMessageContaining("strictly later");
    }

    @Test
    void write_batch_files_writes_a_restart_line_per_restart(@TempDir Path dir) throws IOException {
        List<Path> files = restartStory().writeBatchFiles(dir, ProbeEvent::toJson, ProbeEvent::of);

        assertThat(files).containsExactly(dir.resolve("001.jsonl"), dir.resolve("002.jsonl"));
        assertThat(Files.readString(dir.resolve("scenario.txt"))).startsWith("""
                # replay plan: one line per step, in order; input files hold one JSON row per line
                input 001.jsonl at=current
                restart
                tick to=1970-01-01T00:00:05Z
                restart
                input 002.jsonl at=current

                """).contains(restartStory().describe());
    }

    @Test
    void shuffle_partitions_are_shown_written_as_a_plan_comment_and_applied_to_the_query(@TempDir Path dir)
            throws IOException {
        GenScenario s = story().withShufflePartitions(3);

        assertThat(story().shufflePartitions()).isEmpty();
        assertThat(s.shufflePartitions()).hasValue(3);
        assertThat(s).isNotEqualTo(story()).isEqualTo(story().withShufflePartitions(3));
        assertThat(s.withSteps(s.steps()).shufflePartitions()).hasValue(3);
        assertThat(s.describe()).startsWith("GenScenario: EventTime mode, watermark delay 10s, 3 shuffle partitions, "
                + "event-time base 2024-01-01T00:00:00Z; 4 steps, 3 events\n");
        assertThat(story().withShufflePartitions(1).describe()).contains(", 1 shuffle partition, ");

        TwsQuery<String, ProbeEvent, String> query = ProbeProcessor.query(TimeMode.EventTime(), Duration.ofSeconds(10));
        assertThat(s.applyTo(query).shufflePartitions()).isEqualTo(3);
        assertThat(story().applyTo(query)).isSameAs(query);

        s.writeBatchFiles(dir, ProbeEvent::toJson, ProbeEvent::of);
        assertThat(Files.readString(dir.resolve("scenario.txt"))).startsWith("""
                # replay plan: one line per step, in order; input files hold one JSON row per line
                # shuffle partitions: 3 (run the query with withShufflePartitions(3))
                input 001.jsonl at=current
                """);
        assertThatThrownBy(() -> story().withShufflePartitions(0)).hasMessageContaining("at least 1 partition");
    }
}
