package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;

/**
 * A failing batch as Spark has it (docs/faults.md): the query stops, the batch stays in the offset
 * log, and every later start runs it again first with its id, rows, timestamp and watermarks.
 */
class FailedBatchTest {

    static TwsQuery<String, Event, String> eventTime(boolean fixed) {
        return TwsQuery.builder(fixed ? PoisonProcessor.Fixed::new : PoisonProcessor::new)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.STRING())
                .timeMode(TimeMode.EventTime())
                .watermark("ts", Duration.ofSeconds(5))
                .build();
    }

    static TwsQuery<String, Event, String> processingTime(boolean fixed) {
        return TwsQuery.builder(fixed ? PoisonProcessor.Fixed::new : PoisonProcessor::new)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .build();
    }

    private static Instant t(long ms) {
        return Instant.ofEpochMilli(ms);
    }

    @Test
    void a_failed_batch_stops_the_query_and_every_start_runs_it_again_until_a_fix_is_deployed() {
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(eventTime(false));
        sim.runBatch(new Event("a", 10000, "x"));                       // batch 0, then no-data batch 1 (wm 5000)
        sim.setProcessingTime(t(2000));
        assertThatThrownBy(() -> sim.runBatch(new Event("a", 20000, "x"), new Event("b", 20000, "poison")))
                .hasRootCauseMessage("poison row for key b");
        assertThat(sim.isRunning()).isFalse();
        assertThat(sim.nextBatchId()).isEqualTo(2);
        assertThat(sim.state().value("count", "a")).contains(1L);      // rolled back: a's row of batch 2 is not counted
        assertThatThrownBy(() -> sim.runBatch(new Event("c", 1, "x")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the query stopped after batch 2 failed")
                .hasMessageContaining("restartWith(next)");
        assertThat(sim.waitingRows()).isEmpty();                         // the refused runBatch added nothing

        sim.addData(new Event("c", 30000, "x"));                        // waits: it never joins batch 2
        sim.setProcessingTime(t(60000));
        assertThatThrownBy(sim::start).hasRootCauseMessage("poison row for key b");
        assertThatThrownBy(sim::restart).hasRootCauseMessage("poison row for key b");
        assertThat(sim.waitingRows()).containsExactly(new Event("c", 30000, "x"));
        assertThat(sim.state().value("count", "a")).contains(1L);

        TwsSimulator<String, Event, String> fixed = sim.restartWith(eventTime(true));
        List<BatchResult<String, Event, String>> ran = fixed.history().batches().subList(2, 5);
        BatchResult<String, Event, String> rerun = ran.get(0);
        assertThat(rerun.batchId()).isEqualTo(2);
        assertThat(rerun.input()).containsExactly(new Event("a", 20000, "x"), new Event("b", 20000, "poison"));
        assertThat(rerun.batchTimestamp()).isEqualTo(t(2000));           // from the offset log, not the clock (60000)
        assertThat(rerun.lateWatermark()).isEqualTo(t(5000));
        assertThat(rerun.evictionWatermark()).isEqualTo(t(5000));
        assertThat(rerun.outputs()).containsExactly("a:2@pt=2000,wm=5000", "b:skipped@pt=2000,wm=5000");
        BatchResult<String, Event, String> next = ran.get(1);
        assertThat(next.batchId()).isEqualTo(3);
        assertThat(next.input()).containsExactly(new Event("c", 30000, "x"));
        assertThat(next.batchTimestamp()).isEqualTo(t(60000));
        assertThat(next.lateWatermark()).isEqualTo(t(5000));
        assertThat(next.evictionWatermark()).isEqualTo(t(15000));
        assertThat(next.outputs()).containsExactly("c:1@pt=60000,wm=15000");
        assertThat(ran.get(2).hadInput()).isFalse();
        assertThat(ran.get(2).evictionWatermark()).isEqualTo(t(25000));
        assertThat(fixed.state().value("count", "a")).contains(2L);    // applied once
    }

    @Test
    void the_rerun_fires_processing_time_timers_only_up_to_its_original_timestamp() {
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(processingTime(false));
        sim.runBatchAt(t(1000), List.of(new Event("a", 0, "timer:1500"), new Event("a", 0, "timer:5000")));
        assertThatThrownBy(() -> sim.runBatchAt(t(2000), List.of(new Event("b", 0, "poison"))))
                .hasRootCauseMessage("poison row for key b");
        sim.setProcessingTime(t(10000));                                  // the query is down: nothing runs
        TwsSimulator<String, Event, String> fixed = sim.restartWith(processingTime(true));
        RunResult<String, Event, String> all = fixed.history();
        BatchResult<String, Event, String> rerun = all.lastBatch();
        assertThat(rerun.batchId()).isEqualTo(1);
        assertThat(rerun.batchTimestamp()).isEqualTo(t(2000));
        assertThat(rerun.outputs()).containsExactly("b:skipped@pt=2000,wm=0", "timer:a:1500@pt=2000,wm=0");
        RunResult<String, Event, String> after = fixed.setProcessingTime(t(10001));
        assertThat(after.batches()).hasSize(1);
        assertThat(after.lastBatch().batchId()).isEqualTo(2);
        assertThat(after.lastBatch().hadInput()).isFalse();
        assertThat(after.outputs()).containsExactly("timer:a:5000@pt=10001,wm=0");
    }

    @Test
    void a_failed_no_data_batch_runs_again_as_a_no_data_batch() {
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(eventTime(false));
        // batch 0 registers the poison timer; the no-data batch 1 (watermark 5000) fires it and fails
        assertThatThrownBy(() -> sim.runBatch(new Event("a", 10000, "timer:" + PoisonProcessor.POISON_TIMER)))
                .hasRootCauseMessage("poison timer for key a");
        assertThat(sim.history().batches()).hasSize(1);
        assertThat(sim.nextBatchId()).isEqualTo(1);
        sim.addData(new Event("b", 11000, "x"));
        assertThatThrownBy(sim::start).hasRootCauseMessage("poison timer for key a");
        TwsSimulator<String, Event, String> fixed = sim.restartWith(eventTime(true));
        List<BatchResult<String, Event, String>> ran = fixed.history().batches();
        assertThat(ran).hasSize(4);
        BatchResult<String, Event, String> rerun = ran.get(1);
        assertThat(rerun.batchId()).isEqualTo(1);
        assertThat(rerun.hadInput()).isFalse();
        assertThat(rerun.input()).isEmpty();
        assertThat(rerun.outputs()).containsExactly("timer:a:666@pt=0,wm=5000");
        assertThat(ran.get(2).batchId()).isEqualTo(2);
        assertThat(ran.get(2).outputs()).containsExactly("b:1@pt=0,wm=5000");
        assertThat(ran.get(3).hadInput()).isFalse();
    }
}
