package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;

/**
 * Replays EventTime runs recorded on live Spark 4.2.0 (with a watermark, with a manual clock,
 * without a watermark) and expects what Spark did; the rules are those of docs/semantics.md,
 * sections 3 and 4.
 */
class EventTimeExperimentTest {

    @BeforeEach
    void clearLog() {
        Log.drain();
    }

    private static TwsSimulator<String, Event, OutEvent> simulator(boolean withWatermark, OutputMode outputMode) {
        TwsQuery.Builder<String, Event, OutEvent> b = TwsQuery.builder(EventTimeProcessor::new)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.bean(OutEvent.class))
                .timeMode(TimeMode.EventTime())
                .outputMode(outputMode);
        if (withWatermark) {
            b.watermark("ts", Duration.ofSeconds(10));
        }
        return new TwsSimulator<>(b.build());
    }

    private static Event e(String key, long ts, String cmd) {
        return new Event(key, ts, cmd);
    }

    private static OutEvent out(String key, long ts, String what) {
        return new OutEvent(key, ts, what);
    }

    @Test
    void reproduces_run_ev_step_by_step() {
        var sim = simulator(true, OutputMode.Update());

        // step 1: batch 0 sees watermark 0; a timer at 0 fires at once (<= eviction watermark 0);
        // the watermark moves to 20000-10000 and Spark runs one no-data batch (spec 3)
        RunResult<String, Event, OutEvent> s1 = sim.runBatch(e("a", 10000, "timer+5"), e("b", 20000, "timer+5"), e("z", 1000, "reg:0"));
        assertThat(s1.outputs()).containsExactly(out("a", 10000, "in:timer+5"), out("b", 20000, "in:timer+5"),
                out("z", 1000, "in:reg:0"), out("z", 0, "timer"));
        assertThat(s1.batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L);
        assertThat(s1.batches().get(1).hadInput()).isFalse();
        assertThat(s1.batches().get(1).evictionWatermark()).isEqualTo(Instant.ofEpochMilli(10000));

        // step 2: spec 2.2, equality is late: a@10000 dropped against the previous watermark 10000, a@10001 kept
        RunResult<String, Event, OutEvent> s2 = sim.runBatch(e("a", 10000, "eq-wm"), e("a", 10001, "timer+5"),
                e("c", 5000, "old"), e("d", 30000, "x"));
        assertThat(s2.batches().get(0).droppedLate()).containsExactly(e("a", 10000, "eq-wm"), e("c", 5000, "old"));
        assertThat(s2.batches().get(0).lateWatermark()).isEqualTo(Instant.ofEpochMilli(10000));
        assertThat(s2.outputs()).containsExactly(out("a", 10001, "in:timer+5"), out("d", 30000, "in:x"),
                out("a", 15000, "timer"), out("a", 15001, "timer"));
        assertThat(s2.batches()).extracting(BatchResult::batchId).containsExactly(2L, 3L);
        assertThat(Log.drain()).contains("input key=a wm=10000 batch=2 rows=[a@10001:timer+5]",
                "timer key=a exp=15000 wm=20000 batch=3");

        // step 3: the watermark does not move (20001-10000 < 20000): no no-data batch
        RunResult<String, Event, OutEvent> s3 = sim.runBatch(e("e", 19999, "late-vs-prev?"), e("e", 20001, "emitold"));
        assertThat(s3.batches()).singleElement().extracting(BatchResult::batchId).isEqualTo(4L);
        assertThat(s3.outputs()).containsExactly(out("e", 1, "in:emitold"));

        RunResult<String, Event, OutEvent> s4 = sim.runBatch(e("f", 100000, "x"));
        assertThat(s4.outputs()).containsExactly(out("f", 100000, "in:x"), out("b", 25000, "timer"));
        assertThat(s4.batches()).extracting(BatchResult::batchId).containsExactly(5L, 6L);
        assertThat(sim.watermark()).isEqualTo(Instant.ofEpochMilli(90000));
    }

    @Test
    void spec_15_3_input_waiting_back_to_back_absorbs_the_no_data_batch() {
        var sim = simulator(true, OutputMode.Update());
        RunResult<String, Event, OutEvent> run = sim.runBackToBack(List.of(
                List.of(e("a", 10000, "reg:12000"), e("b", 30000, "x")),
                List.of(e("c", 15000, "between-wm0-and-wm20000"), e("c", 20000, "eq-new-wm"), e("c", 0, "zero"))));
        assertThat(run.batches()).hasSize(2);
        BatchResult<String, Event, OutEvent> second = run.batches().get(1);
        assertThat(second.lateWatermark()).isEqualTo(Instant.EPOCH);
        assertThat(second.evictionWatermark()).isEqualTo(Instant.ofEpochMilli(20000));
        assertThat(second.droppedLate()).containsExactly(e("c", 0, "zero"));
        assertThat(second.outputs()).containsExactly(out("c", 15000, "in:between-wm0-and-wm20000"),
                out("c", 20000, "in:eq-new-wm"), out("a", 12000, "timer"));
        assertThat(Log.drain()).contains(
                "input key=c wm=20000 batch=1 rows=[c@15000:between-wm0-and-wm20000, c@20000:eq-new-wm]");
    }

    @Test
    void spec_2_4_event_time_without_watermark_fires_only_timers_at_or_before_zero() {
        var sim = simulator(false, OutputMode.Update());
        RunResult<String, Event, OutEvent> run = sim.runBatch(e("a", 5000, "reg:0"), e("b", 6000, "reg:1"));
        assertThat(run.batches()).hasSize(1);
        assertThat(run.outputs()).containsExactly(out("a", 5000, "in:reg:0"), out("b", 6000, "in:reg:1"), out("a", 0, "timer"));
        assertThat(sim.runBatch(e("a", 0, "x")).batches().get(0).droppedLate()).as("no late filtering").isEmpty();
        assertThat(sim.state().timers("b")).containsExactly(Instant.ofEpochMilli(1));
    }

    @Test
    void spec_3_complete_output_mode_runs_no_no_data_batch() {
        var sim = simulator(true, OutputMode.Complete());
        assertThat(sim.runBatch(e("a", 100000, "timer+5")).batches()).hasSize(1);
        assertThat(sim.watermark()).isEqualTo(Instant.ofEpochMilli(90000));
    }

    @Test
    void spec_2_1_watermark_counts_late_rows_and_never_moves_down() {
        var sim = simulator(true, OutputMode.Update());
        sim.runBatch(e("a", 50000, "x"));
        assertThat(sim.watermark()).isEqualTo(Instant.ofEpochMilli(40000));
        sim.runBatch(e("a", 20000, "x"));
        assertThat(sim.watermark()).isEqualTo(Instant.ofEpochMilli(40000));
        // a late row (dropped) still moves the watermark: 60000 - 10000 is above 40000
        RunResult<String, Event, OutEvent> run = sim.runBatch(e("late", 40000, "x"), e("b", 60000, "x"));
        assertThat(run.batches().get(0).droppedLate()).containsExactly(e("late", 40000, "x"));
        assertThat(sim.watermark()).isEqualTo(Instant.ofEpochMilli(50000));
    }

    @Test
    void spec_1_3_timer_values_carry_batch_timestamp_and_eviction_watermark() {
        var sim = simulator(true, OutputMode.Update());
        sim.setProcessingTime(Instant.ofEpochMilli(7000));
        sim.runBatch(e("a", 30000, "x"));
        sim.runBatch(e("a", 40000, "x"));
        assertThat(Log.drain()).contains("input key=a wm=20000 batch=2 rows=[a@40000:x]");
        assertThat(sim.history().batches()).extracting(BatchResult::batchTimestamp)
                .containsOnly(Instant.ofEpochMilli(7000));
    }
}
