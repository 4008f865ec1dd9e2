package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.apache.spark.SparkRuntimeException;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;

/** Restart, snapshots, the retry check, real-time mode and the eventTimeColumnName check (issue 7). */
class RestartRetryAndModesTest {

    @BeforeEach
    void clearLog() {
        Log.drain();
    }

    static TwsQuery<String, String, String> experiment() {
        return TwsQuery.builder(ExperimentProcessor::new)
                .keyBy(s -> s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .build();
    }

    private static Instant ms(long ms) {
        return Instant.ofEpochMilli(ms);
    }

    @Test
    void spec_3_after_a_restart_no_batch_runs_before_new_data_and_overdue_timers_fire_after_its_input() {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(experiment());
        sim.runBatchAt(ms(1000), List.of("a,reg:5000"));
        Log.drain();
        sim.restart();
        assertThat(Log.drain()).containsExactly("init counter=0 batch=0", "close", "init counter=0 batch=0", "close");
        assertThat(sim.setProcessingTime(ms(10_000)).batches()).isEmpty();
        BatchResult<String, String, String> data = sim.runBatchAt(ms(11_000), List.of("b,x")).lastBatch();
        assertThat(data.batchId()).isEqualTo(1);
        assertThat(data.outputs()).containsExactly("in:b:x", "timer:a:5000");
        assertThat(sim.setProcessingTime(ms(12_000)).batches()).extracting(BatchResult::batchId).containsExactly(2L);
    }

    @Test
    void a_restart_step_in_a_scenario_behaves_like_restart() {
        Scenario<String> scenario = Scenario.<String>builder().batchAt(ms(1000), List.of("a,reg:5000")).restart()
                .tick(ms(10_000)).batchAt(ms(11_000), List.of("b,x")).build();
        RunResult<String, String, String> run = new TwsSimulator<>(experiment()).run(scenario);
        assertThat(run.batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L);
        assertThat(run.outputs()).containsExactly("in:a:reg:5000", "in:b:x", "timer:a:5000");
    }

    @Test
    void initial_state_is_not_applied_again_after_a_restart() {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(TwsQuery.builder(InitialStateProcessor::new)
                .keyBy(s -> s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .initialState(List.of(Map.entry("a", 10L)), Encoders.LONG())
                .build());
        sim.runBatchAt(ms(1000), List.of("a,x"));
        assertThat(Log.drain()).anyMatch(l -> l.startsWith("initState key=a"));
        sim.restart();
        sim.runBatchAt(ms(2000), List.of("a,y"));
        assertThat(Log.drain()).noneMatch(l -> l.startsWith("initState"));
    }

    @Test
    void a_saved_snapshot_restores_state_timers_clock_and_batch_id(@TempDir Path dir) throws Exception {
        TwsSimulator<String, String, String> original = new TwsSimulator<>(experiment());
        original.runBatchAt(ms(1000), List.of("a,reg:5000", "a,lst:x;y", "b,smap:k=1"));
        Path file = dir.resolve("checkpoint.snapshot");
        original.snapshot().save(file);

        TwsSimulator<String, String, String> restored = new TwsSimulator<>(experiment());
        StateSnapshot loaded = StateSnapshot.load(file);
        assertThat(loaded.nextBatchId()).isEqualTo(1);
        assertThat(loaded.processingTime()).isEqualTo(ms(1000));
        restored.restore(loaded);
        assertThat(restored.state().list("lst", "a")).containsExactly("x", "y");
        assertThat(restored.state().<String, Long>map("smap", "b")).containsExactly(Map.entry("k", 1L));
        assertThat(restored.state().timers("a")).containsExactly(ms(5000));
        assertThat(restored.nextBatchId()).isEqualTo(1);

        original.restart();
        List<String> expected = original.runBatchAt(ms(6000), List.of("b,z")).outputs();
        assertThat(restored.runBatchAt(ms(6000), List.of("b,z")).outputs()).isEqualTo(expected)
                .containsExactly("in:b:z", "timer:a:5000");
    }

    @Test
    void a_snapshot_restores_only_into_a_query_with_the_same_key_encoder() {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(experiment());
        StateSnapshot snapshot = sim.snapshot();
        TwsSimulator<Long, String, String> other = new TwsSimulator<>(TwsQuery.builder(LongKeyProcessor::new)
                .keyBy(Long::valueOf, Encoders.LONG()).input(Encoders.STRING()).output(Encoders.STRING()).build());
        assertThatThrownBy(() -> other.restore(snapshot)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("differs from this query's");
    }

    /** Emits the wall clock: different on a retry. */
    public static class ClockReader extends StatefulProcessor<String, String, String> {
        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
        }

        @Override
        public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<String> rows,
                TimerValues timerValues) {
            return Log.it(List.of(key + "@" + System.nanoTime()));
        }
    }

    /** Emits nothing but keeps a random number in state. */
    public static class RandomState extends StatefulProcessor<String, String, String> {
        private transient ValueState<Double> last;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            last = getHandle().getValueState("last", Encoders.DOUBLE(), TTLConfig.NONE());
        }

        @Override
        public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<String> rows,
                TimerValues timerValues) {
            last.update(Math.random());
            return Log.it(List.of());
        }
    }

    private static <P extends StatefulProcessor<String, String, String>> TwsSimulator<String, String, String> retried(
            java.util.function.Supplier<P> processor) {
        return TwsSimulator.builder(TwsQuery.builder(processor)
                .keyBy(s -> s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING()).output(Encoders.STRING()).build()).checkRetries().build();
    }

    @Test
    void the_retry_check_names_the_batch_and_key_whose_outputs_differ_and_keeps_nothing() {
        TwsSimulator<String, String, String> sim = retried(ClockReader::new);
        assertThatThrownBy(() -> sim.runBatch("a,1", "b,1"))
                .isInstanceOf(NondeterministicBatchException.class)
                .hasMessageStartingWith("batch 0 is not deterministic: run twice from the same committed state, as Spark "
                        + "does when it retries a task, key a: handleInputRows emitted [a@")
                .hasMessageContaining("Look for reads of the wall clock");
        assertThat(sim.history().batches()).isEmpty();
        assertThat(sim.nextBatchId()).isZero();
    }

    @Test
    void the_retry_check_finds_state_that_differs() {
        TwsSimulator<String, String, String> sim = retried(RandomState::new);
        assertThatThrownBy(() -> sim.runBatch("k,1")).isInstanceOf(NondeterministicBatchException.class)
                .hasMessageContaining("key k: state variable 'last' holds different data after the retry");
    }

    @Test
    void a_deterministic_processor_passes_the_retry_check_and_its_state_is_applied_once() {
        TwsSimulator<String, String, String> sim = TwsSimulator.builder(experiment()).checkRetries().build();
        RunResult<String, String, String> run = sim.runBatchAt(ms(1000), List.of("a,x", "a,lst:p", "a,reg:500"));
        assertThat(run.outputs()).containsExactly("in:a:x", "in:a:lst:p", "in:a:reg:500", "timer:a:500");
        assertThat(sim.state().<Long>value("count", "a")).contains(3L);
        assertThat(sim.state().list("lst", "a")).containsExactly("p");
        assertThat(Log.drain().stream().filter(l -> l.startsWith("input key=a")).count()).isEqualTo(2);
    }

    @Test
    void real_time_mode_calls_handle_input_rows_once_per_row() {
        TwsSimulator<String, String, String> sim = TwsSimulator.builder(experiment()).realTimeMode().build();
        Log.drain();
        sim.runBatchAt(ms(1000), List.of("a,x", "b,y", "a,z"));
        assertThat(Log.drain()).filteredOn(l -> l.startsWith("input"))
                .extracting(l -> l.substring(l.indexOf("rows=")).replaceAll(" counter=.*", ""))
                .containsExactly("rows=[a,x]", "rows=[a,z]", "rows=[b,y]");
    }

    private static TwsQuery.Builder<String, Event, OutEvent> eventTimeOutput() {
        return TwsQuery.builder(EventTimeProcessor::new)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.bean(OutEvent.class))
                .outputMode(OutputMode.Append())
                .watermark("ts", Duration.ofSeconds(10))
                .outputEventTimeColumn("outTs");
    }

    @Test
    void spec_15_8_an_output_row_at_or_before_the_late_watermark_fails_the_batch() {
        TwsSimulator<String, Event, OutEvent> sim = new TwsSimulator<>(eventTimeOutput().build());
        assertThat(sim.query().timeMode()).isEqualTo(TimeMode.EventTime());
        sim.runBatch(new Event("a", 1, "emitold"));        // 1 ms = 1000 µs > watermark 0: passes
        sim.runBatch(new Event("a", 30_000, "x"));         // watermark 20 s
        assertThatThrownBy(() -> sim.runBatch(new Event("a", 40_000, "emitold")))
                .isInstanceOfSatisfying(SparkRuntimeException.class, e -> {
                    assertThat(e.getCondition()).isEqualTo("EMITTING_ROWS_OLDER_THAN_WATERMARK_NOT_ALLOWED");
                    assertThat(e.getMessageParameters()).containsEntry("currentWatermark", "20000")
                            .containsEntry("emittedRowEventTime", "1000");
                });
        assertThat(sim.nextBatchId()).isEqualTo(3);
    }

    @Test
    void the_event_time_column_overload_needs_a_watermark_and_event_time_mode() {
        assertThatThrownBy(() -> TwsQuery.builder(EventTimeProcessor::new).keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class)).output(Encoders.bean(OutEvent.class))
                .outputEventTimeColumn("outTs").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("[CANNOT_ASSIGN_EVENT_TIME_COLUMN_WITHOUT_WATERMARK]");
        assertThatThrownBy(() -> eventTimeOutput().timeMode(TimeMode.ProcessingTime()).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("runs in TimeMode.EventTime()");
        assertThatThrownBy(() -> new TwsSimulator<>(eventTimeOutput().outputEventTimeColumn("what").build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("outputEventTimeColumn column 'what' has type string");
    }
}
