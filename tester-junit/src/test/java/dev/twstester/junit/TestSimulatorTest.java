package dev.twstester.junit;

import static dev.twstester.junit.TallyProcessor.reading;
import static dev.twstester.junit.assertj.TwsAssertions.assertThat;
import static dev.twstester.junit.assertj.TwsAssertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.NoSuchElementException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.sim.TwsSimulator;

/** {@link TestSimulator} on its own, without the extension. */
class TestSimulatorTest {
    final TestSimulator<String, Reading, String> sim = TestSimulator.of("sim", TallyProcessor.query());

    @Test
    void the_output_handle_reads_every_batch_rows_in_order_and_peeks_without_consuming() {
        sim.runBatch(reading("b", 10, 0), reading("a", 11, 0));
        sim.runBatch(reading("a", 12, 0));

        assertThat(sim.output().size()).isEqualTo(3);
        assertThat(sim.output().peekAll()).containsExactly("a=1", "b=1", "a=2");
        assertThat(sim.output().readNext()).isEqualTo("a=1");
        assertThat(sim.output().readAll()).containsExactly("b=1", "a=2");
        assertThat(sim.output().isEmpty()).isTrue();
        assertThatThrownBy(() -> sim.output().readNext()).isInstanceOf(NoSuchElementException.class)
                .hasMessage("simulator 'sim' has no unread output row (3 emitted so far, all read); check isEmpty() "
                        + "first or run a batch");
    }

    @Test
    void calls_made_through_a_TwsSimulator_reference_are_recorded_too() {
        TwsSimulator<String, Reading, String> plain = sim;
        sim.runBatch(reading("a", 10, 0));
        plain.runBatch(reading("a", 11, 0));
        sim.advanceProcessingTime(Duration.ofSeconds(5));

        assertThat(sim.timeline()).contains("""
                #2 runBatch(1 row)
                  batch 2 (data), processing time 1970-01-01T00:00:00Z""", """
                #3 advanceProcessingTime(PT5S) to 1970-01-01T00:00:05Z
                  no batch ran
                  state: unchanged
                now: watermark 1970-01-01T00:00:06Z, processing time 1970-01-01T00:00:05Z, next batch 4""");
    }

    @Test
    void state_changes_from_ttl_expiry_and_timers_appear_per_call() {
        sim.runBatch(reading("a", 10, 1));
        sim.state().setList("kinds", "a", List.of(4, 5)).deleteTimer("a", Instant.ofEpochSecond(12));

        assertThat(sim.timeline()).contains("""
                #2 state().setList("kinds", a, [4, 5])
                  no batch ran
                  state changes:
                    key a, list state kinds: [1] -> [4, 5]
                #3 state().deleteTimer(a, 1970-01-01T00:00:12Z)
                  no batch ran
                  state changes:
                    key a, timers: [1970-01-01T00:00:12Z] -> (none)""");
    }

    @Test
    void the_state_view_names_each_variable_s_kind() {
        sim.runBatch(reading("a", 10, 1));

        assertThat(sim.state().variableNames()).containsExactly("count", "kinds", "perKind");
        assertThat(sim.state().variableNames()).extracting(sim.state()::kindOf).containsExactly("value", "list", "map");
    }

    @Test
    void a_snapshot_restores_into_the_recorded_simulator_and_the_restore_is_on_the_timeline() {
        sim.runBatch(reading("a", 10, 1));
        dev.twstester.sim.StateSnapshot saved = sim.snapshot();
        sim.runBatch(reading("a", 11, 0));
        assertThat(sim.state().value("count", "a")).contains(2L);

        sim.restore(saved);

        assertThat(sim.state().value("count", "a")).contains(1L);
        assertThat(sim.isRunning()).isTrue();
        assertThat(sim.noDataBatchPending()).isFalse();
        assertThat(sim.encoderPaths()).containsEntry("key", "native");
        assertThat(sim.timeline()).contains("#3 restore(snapshot)");
    }

    @Test
    void after_restart_with_the_new_versions_calls_and_outputs_join_the_record() {
        sim.runBatch(reading("a", 10, 0));
        TwsSimulator<String, Reading, String> v2 = sim.restartWith(TallyProcessor.query());
        v2.runBatch(reading("a", 11, 0));
        v2.state().setValue("count", "a", 7L);

        assertThat(sim.output().readAll()).containsExactly("a=1", "a=2");
        assertThat(sim.timeline()).contains("""
                #2 restartWith(next)
                  new version: TallyProcessor, EventTime mode, Update output, watermark on ts delayed PT5S; the calls \
                after this one run it
                  no batch ran
                  state: unchanged
                #3 runBatch(1 row)
                  batch 2 (data), processing time 1970-01-01T00:00:00Z""", """
                #4 state().setValue("count", a, 7)
                  no batch ran
                  state changes:
                    key a, value state count: 2 -> 7
                now: watermark 1970-01-01T00:00:06Z, processing time 1970-01-01T00:00:00Z, next batch 4""");
        sim.close();
        assertThatThrownBy(() -> v2.runBatch(reading("a", 12, 0))).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("simulator 'sim' was closed by close()");
    }

    @Test
    void a_closed_simulator_refuses_every_call() {
        sim.close();

        assertThatThrownBy(() -> sim.runBatch(reading("a", 1, 0))).isInstanceOf(IllegalStateException.class)
                .hasMessage("simulator 'sim' was closed by close(); a simulator belongs to one test (a static "
                        + "@Simulator field shares one across a class)");
        // a state write is a call too; reading state and clocks still works
        assertThatThrownBy(() -> sim.state().setValue("count", "a", 1L)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(sim::output).isInstanceOf(IllegalStateException.class);
        assertThat(sim.state().keys()).isEmpty();
    }

    @Test
    void a_restart_is_recorded_and_written_as_stop_and_start_lines(@TempDir Path dir) {
        sim.runBatchAt(Instant.ofEpochSecond(1), List.of(reading("a", 10, 0)));
        sim.restart();
        sim.runBatchAt(Instant.ofEpochSecond(3), List.of(reading("a", 11, 0)));

        // each data batch advances the watermark, so a no-data batch follows it; ids continue after the restart
        assertThat(sim.history().batches()).extracting(b -> b.batchId()).containsExactly(0L, 1L, 2L, 3L);
        sim.saveTrace(dir);
        assertThat(dir.resolve("scenario.txt")).content().startsWith("""
                # replay plan: one line per step, in order; input files hold one JSON row per line
                input 001.jsonl at=1970-01-01T00:00:01Z
                stop
                start
                input 002.jsonl at=1970-01-01T00:00:03Z

                timeline of simulator 'sim'""");
    }

    @Test
    void save_trace_writes_the_replay_files(@TempDir Path dir) {
        sim.runBatchAt(Instant.ofEpochSecond(1), List.of(reading("a", 10, 0)));
        sim.setProcessingTime(Instant.ofEpochSecond(2));

        sim.saveTrace(dir);

        assertThat(dir.resolve("001.jsonl")).hasContent("{\"kind\":0,\"sensor\":\"a\",\"ts\":\"1970-01-01T00:00:10Z\"}");
        assertThat(dir.resolve("scenario.txt")).content().startsWith("""
                # replay plan: one line per step, in order; input files hold one JSON row per line
                input 001.jsonl at=1970-01-01T00:00:01Z
                tick to=1970-01-01T00:00:02Z

                timeline of simulator 'sim'""");
    }
}
