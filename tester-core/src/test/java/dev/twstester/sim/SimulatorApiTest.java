package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;

/** The simulator's own API: time control, per-key test, state views, and that it needs no SparkSession. */
class SimulatorApiTest {

    @BeforeEach
    void clearLog() {
        Log.drain();
    }

    private static TwsSimulator<String, Event, OutEvent> eventTime(TimeMode mode) {
        return new TwsSimulator<>(TwsQuery.builder(EventTimeProcessor::new)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.bean(OutEvent.class))
                .timeMode(mode)
                .outputMode(OutputMode.Append())
                .watermark("ts", Duration.ofSeconds(10))
                .build());
    }

    private static TwsSimulator<String, String, String> experiment(TimeMode mode) {
        return new TwsSimulator<>(TwsQuery.builder(ExperimentProcessor::new)
                .keyBy(s -> s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(mode)
                .build());
    }

    @Test
    void keep_history_false_returns_each_batch_but_keeps_none() {
        TwsSimulator<String, String, String> sim = TwsSimulator.builder(TwsQuery.builder(ExperimentProcessor::new)
                        .keyBy(s -> s.substring(0, s.indexOf(',')), Encoders.STRING())
                        .input(Encoders.STRING())
                        .output(Encoders.STRING())
                        .timeMode(TimeMode.None())
                        .build())
                .keepHistory(false)
                .build();
        RunResult<String, String, String> first = sim.runBatch("a,x");
        RunResult<String, String, String> second = sim.runBatch("a,y");
        assertThat(first.batches()).extracting(BatchResult::batchId).containsExactly(0L);
        assertThat(second.batches()).extracting(BatchResult::batchId).containsExactly(1L);
        assertThat(sim.history().batches()).isEmpty();
        assertThat(sim.nextBatchId()).isEqualTo(2);
    }

    @Test
    void encoder_paths_name_each_encoder_and_why_one_is_not_native() {
        TwsSimulator<String, Event, OutEvent> sim = eventTime(TimeMode.EventTime());
        assertThat(sim.encoderPaths()).containsExactly(
                Map.entry("key", "native"), Map.entry("input", "native"), Map.entry("output", "native"));
        Map<String, String> state = experiment(TimeMode.ProcessingTime()).encoderPaths();
        assertThat(state).containsEntry("state count", "native").containsEntry("state lst", "native")
                .containsEntry("state smap key", "native").containsEntry("state smap value", "native")
                .containsEntry("state tm1 value", "native");

        TwsSimulator<String, String, String> kryo = new TwsSimulator<>(TwsQuery.builder(ExperimentProcessor::new)
                .keyBy(s -> s, Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.kryo(String.class))
                .build());
        assertThat(kryo.encoderPaths().get("output")).startsWith("Catalyst (Spark's encoder): ");
    }

    @Test
    void runs_without_any_spark_session() {
        TwsSimulator<String, String, String> sim = experiment(TimeMode.ProcessingTime());
        sim.runBatch("a,x");
        assertThat(SparkSession.getActiveSession().isEmpty()).isTrue();
        assertThat(SparkSession.getDefaultSession().isEmpty()).isTrue();
    }

    @Test
    void spec_3_time_mode_none_still_runs_a_no_data_batch_when_the_watermark_advances_but_fires_no_timers() {
        TwsSimulator<String, Event, OutEvent> sim = eventTime(TimeMode.None());
        RunResult<String, Event, OutEvent> run = sim.runBatch(new Event("a", 30000, "x"));
        assertThat(run.batches()).extracting(BatchResult::hadInput).containsExactly(true, false);
        // no late filter outside EventTime mode
        assertThat(sim.runBatch(new Event("a", 0, "x")).batches().get(0).droppedLate()).isEmpty();
        assertThat(Log.drain()).contains("input key=a wm=20000 batch=2 rows=[a@0:x]");
    }

    @Test
    void advance_watermark_to_runs_the_no_data_batch_and_fires_event_time_timers() {
        TwsSimulator<String, Event, OutEvent> sim = eventTime(TimeMode.EventTime());
        sim.runBatch(new Event("a", 1000, "reg:50000"));
        assertThat(sim.advanceWatermarkTo(Instant.ofEpochMilli(49_999)).outputs()).isEmpty();
        RunResult<String, Event, OutEvent> run = sim.advanceWatermarkTo(Instant.ofEpochMilli(50_000));
        assertThat(run.outputs()).containsExactly(new OutEvent("a", 50000, "timer"));
        assertThat(run.lastBatch().evictionWatermark()).isEqualTo(Instant.ofEpochMilli(50_000));
        assertThatThrownBy(() -> sim.advanceWatermarkTo(Instant.ofEpochMilli(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("never move backwards");
    }

    @Test
    void processing_time_never_moves_backwards() {
        TwsSimulator<String, String, String> sim = experiment(TimeMode.ProcessingTime());
        sim.setProcessingTime(Instant.ofEpochMilli(5000));
        assertThatThrownBy(() -> sim.advanceProcessingTime(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> sim.setProcessingTime(Instant.ofEpochMilli(10)))
                .hasMessageContaining("never moves backwards");
    }

    @Test
    void test_runs_a_one_key_batch_and_rejects_rows_of_other_keys() {
        TwsSimulator<String, String, String> sim = experiment(TimeMode.ProcessingTime());
        assertThat(sim.test("a", List.of("a,1", "a,2")).outputs()).containsExactly("in:a:1", "in:a:2");
        assertThat(sim.state().<Long>value("count", "a")).contains(2L);
        assertThatThrownBy(() -> sim.test("a", List.of("b,1")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has key b, not a");
    }

    @Test
    void state_view_reads_and_writes_every_kind_of_state() {
        TwsSimulator<String, String, String> sim = experiment(TimeMode.ProcessingTime());
        StateView<String> state = sim.state();
        assertThat(state.variableNames()).containsExactly("count", "smap", "imap", "lst", "tv1", "tl1", "tm1");
        state.setValue("count", "k", 41L)
                .setList("lst", "k", List.of("p", "q"))
                .setMap("smap", "k", Map.of("bb", 2L, "a", 1L))
                .registerTimer("k", Instant.ofEpochMilli(300))
                .registerTimer("k", Instant.ofEpochMilli(256));
        sim.runBatch("k,show");
        assertThat(Log.drain()).contains("  show key=k timers=[256, 300] smap=[(a,1), (bb,2)] imap=[] lst=[p, q] smapExists=true");
        assertThat(state.<Long>value("count", "k")).contains(42L);
        assertThat(state.timers("k")).containsExactly(Instant.ofEpochMilli(256), Instant.ofEpochMilli(300));
        assertThat(state.keys()).containsExactly("k");
        assertThat(state.hasState("nobody")).isFalse();
        state.clear("lst", "k").deleteTimer("k", Instant.ofEpochMilli(256));
        assertThat(state.<String>list("lst", "k")).isEmpty();
        assertThat(state.timers("k")).containsExactly(Instant.ofEpochMilli(300));
    }

    @Test
    void state_view_names_the_variables_that_exist_on_a_wrong_name_or_kind() {
        StateView<String> state = experiment(TimeMode.None()).state();
        assertThatThrownBy(() -> state.value("cnt", "k")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no state variable named 'cnt'; the processor's init() defines [count, smap, imap, lst, tv1, tl1, tm1]");
        assertThatThrownBy(() -> state.list("count", "k"))
                .hasMessage("'count' is a value state, not a list state; use value(\"count\", key)");
        assertThatThrownBy(() -> state.registerTimer("k", Instant.EPOCH))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("TimeMode.None()");
    }

    @Test
    void watermark_column_must_be_a_timestamp_column_of_the_input() {
        TwsQuery.Builder<String, Event, OutEvent> b = TwsQuery.builder(EventTimeProcessor::new)
                .keyBy(Event::getKey, Encoders.STRING()).input(Encoders.bean(Event.class)).output(Encoders.bean(OutEvent.class))
                .timeMode(TimeMode.EventTime());
        assertThatThrownBy(() -> new TwsSimulator<>(b.watermark("time", Duration.ZERO).build()))
                .hasMessageContaining("'time' is not a column of the input");
        assertThatThrownBy(() -> new TwsSimulator<>(b.watermark("cmd", Duration.ZERO).build()))
                .hasMessageContaining("an event-time column must be a timestamp");
    }

    @Test
    void spec_6_query_info_has_the_batch_id_and_one_query_id_per_run() {
        TwsSimulator<String, String, String> sim = experiment(TimeMode.ProcessingTime());
        sim.runBatch("a,x");
        sim.advanceProcessingTime(Duration.ofSeconds(1));
        assertThat(Log.drain()).filteredOn(l -> l.startsWith("init")).containsExactly(
                "init counter=0 batch=0", "init counter=0 batch=0", "init counter=0 batch=0", "init counter=0 batch=1");
    }

    @Test
    void an_input_row_the_encoder_cannot_take_is_rejected_with_its_position() {
        TwsSimulator<String, Event, OutEvent> sim = eventTime(TimeMode.EventTime());
        assertThatThrownBy(() -> sim.runBatch(new Event("b", 0, "x"), null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("input row 1 of batch 0");
        assertThat(sim.nextBatchId()).isZero();
    }
}
