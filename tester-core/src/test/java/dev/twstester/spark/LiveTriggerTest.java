package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.RunComparison;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.Event;
import dev.twstester.sim.TickProcessor;
import dev.twstester.sim.TwsSimulator;

/**
 * Trigger intervals on live Spark 4.2.0 with a manual trigger clock, each scenario also run on the
 * simulator and compared batch by batch (outputs, timers, watermarks, timestamps, metrics): the
 * no-data batch a watermark advance asks for runs at the next trigger time and its timers see that
 * time; data waiting at that trigger replaces it, with the rows between the two watermarks
 * delivered; a stop skips a pending no-data batch; a clock move past several trigger times runs one
 * trigger, at the new time; idle triggers run nothing in EventTime and a batch in ProcessingTime.
 */
@Tag("live")
class LiveTriggerTest {

    private static Instant t(long ms) {
        return Instant.ofEpochMilli(ms);
    }

    private static TwsQuery<String, Event, String> eventTimeQuery(Duration interval) {
        return TwsQuery.builder(TickProcessor::new)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.STRING())
                .timeMode(TimeMode.EventTime())
                .watermark("ts", Duration.ofSeconds(5))
                .trigger(Trigger.ProcessingTime(interval.toMillis()))
                .build();
    }

    /** Runs {@code scenario} live and on the simulator, asserts they agree, returns the live run. */
    private static RunResult<String, Event, String> bothAgree(TwsQuery<String, Event, String> query, Scenario<Event> scenario) {
        RunResult<String, Event, String> live = LiveRunner.of(query).run(scenario);
        RunComparison.simulatorVsSpark().assertSame(new TwsSimulator<>(query).run(scenario), live);
        return live;
    }

    @Test
    void the_no_data_batch_runs_at_the_next_trigger_time_and_its_timer_sees_that_time() {
        Scenario<Event> scenario = Scenario.<Event>builder()
                .addData(List.of(new Event("a", 10_000, "timer:4000")))
                .tick(t(1000))   // batch 0: the watermark moves to 5000
                .tick(t(1500))   // no trigger time: nothing
                .tick(t(2000))   // batch 1, the no-data batch: the timer at 4000 fires, seeing 2000
                .tick(t(3000))   // an idle trigger: nothing is pending in EventTime
                .addData(List.of(new Event("b", 20_000, "timer:14000")))
                .tick(t(9500))   // past five trigger times: one trigger, at 9500 (batch 2)
                .tick(t(12_000)) // batch 3, its no-data batch
                .build();

        RunResult<String, Event, String> live = bothAgree(eventTimeQuery(Duration.ofSeconds(1)), scenario);

        assertThat(live.batches()).extracting(BatchResult::batchTimestamp)
                .containsExactly(t(1000), t(2000), t(9500), t(12_000));
        assertThat(live.batches()).extracting(BatchResult::hadInput).containsExactly(true, false, true, false);
        assertThat(live.batches()).extracting(BatchResult::outputs).containsExactly(
                List.of("in:a:timer:4000@pt=1000,wm=0"),
                List.of("timer:a:4000@pt=2000,wm=5000"),
                List.of("in:b:timer:14000@pt=9500,wm=5000"),
                List.of("timer:b:14000@pt=12000,wm=15000"));
    }

    @Test
    void data_waiting_at_the_next_trigger_replaces_the_no_data_batch_and_rows_between_the_watermarks_are_delivered() {
        Scenario<Event> scenario = Scenario.<Event>builder()
                .addData(List.of(new Event("a", 10_000, "timer:4000")))
                .tick(t(1000))   // batch 0: the watermark moves to 5000
                .addData(List.of(new Event("a", 3000, "between"), new Event("a", 0, "late")))
                .tick(t(2000))   // batch 1: a data batch, late watermark 0, eviction watermark 5000
                .tick(t(3000))   // nothing: the watermark did not move again
                .build();

        RunResult<String, Event, String> live = bothAgree(eventTimeQuery(Duration.ofSeconds(1)), scenario);

        assertThat(live.batches()).hasSize(2);
        BatchResult<String, Event, String> absorbing = live.batches().get(1);
        assertThat(absorbing.hadInput()).isTrue();
        assertThat(absorbing.batchTimestamp()).isEqualTo(t(2000));
        assertThat(absorbing.lateWatermark()).isEqualTo(t(0));
        assertThat(absorbing.evictionWatermark()).isEqualTo(t(5000));
        assertThat(absorbing.droppedLate()).containsExactly(new Event("a", 0, "late"));
        // the row at 3000 is at or before the watermark the processor sees, and still delivered;
        // the due timer fires after the input
        assertThat(absorbing.outputs()).containsExactly("in:a:between@pt=2000,wm=5000", "timer:a:4000@pt=2000,wm=5000");
    }

    @Test
    void a_stop_with_a_no_data_batch_pending_skips_it_and_the_first_batch_after_the_start_is_back_to_back() {
        Scenario<Event> scenario = Scenario.<Event>builder()
                .addData(List.of(new Event("a", 10_000, "timer:4000")))
                .tick(t(1000))   // batch 0: the watermark moves to 5000, a no-data batch is due at 2000
                .stop()
                .tick(t(2000))   // stopped: nothing
                .addData(List.of(new Event("a", 3000, "between")))
                .start()         // the start's trigger at 2000 reads the waiting row (batch 1)
                .build();

        RunResult<String, Event, String> live = bothAgree(eventTimeQuery(Duration.ofSeconds(1)), scenario);

        assertThat(live.batches()).extracting(BatchResult::batchTimestamp).containsExactly(t(1000), t(2000));
        BatchResult<String, Event, String> first = live.batches().get(1);
        assertThat(first.hadInput()).isTrue();
        assertThat(first.lateWatermark()).isEqualTo(t(0));
        assertThat(first.evictionWatermark()).isEqualTo(t(5000));
        assertThat(first.outputs()).containsExactly("in:a:between@pt=2000,wm=5000", "timer:a:4000@pt=2000,wm=5000");
    }

    @Test
    void a_restart_with_nothing_waiting_runs_no_batch_and_the_skipped_no_data_batch_never_runs() {
        Scenario<Event> scenario = Scenario.<Event>builder()
                .addData(List.of(new Event("a", 10_000, "timer:4000")))
                .tick(t(1000))   // batch 0: the watermark moves to 5000, a no-data batch is due at 2000
                .restart()       // nothing waits: no batch
                .tick(t(2000))   // nothing: the new run has no batch that asks for one
                .tick(t(3000))
                .addData(List.of(new Event("b", 1000, "x")))
                .tick(t(4000))   // batch 1: b's row (late watermark 0), then the overdue timer
                .build();

        RunResult<String, Event, String> live = bothAgree(eventTimeQuery(Duration.ofSeconds(1)), scenario);

        assertThat(live.batches()).extracting(BatchResult::batchTimestamp).containsExactly(t(1000), t(4000));
        assertThat(live.batches().get(1).outputs())
                .containsExactly("in:b:x@pt=4000,wm=5000", "timer:a:4000@pt=4000,wm=5000");
    }

    @Test
    void processing_time_mode_runs_a_batch_at_every_trigger_time_the_clock_reaches() {
        TwsQuery<String, Event, String> query = TwsQuery.builder(TickProcessor::new)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .trigger(Trigger.ProcessingTime(1000))
                .build();
        Scenario<Event> scenario = Scenario.<Event>builder()
                .addData(List.of(new Event("a", 0, "timer:+1500")))
                .tick(t(1000))   // batch 0: a timer at 2500
                .tick(t(2000))   // batch 1: no data, the timer is not due
                .tick(t(2500))   // no trigger time: nothing
                .tick(t(3700))   // batch 2 at 3700: the timer fires, seeing 3700
                .addData(List.of(new Event("b", 0, "x")))
                .tick(t(3900))   // nothing before 4000
                .tick(t(4000))   // batch 3 with b's row
                .build();

        RunResult<String, Event, String> live = LiveRunner.of(query).run(scenario);
        RunComparison.simulatorVsSpark().assertSame(new TwsSimulator<>(query).run(scenario), live);

        assertThat(live.batches()).extracting(BatchResult::batchTimestamp)
                .containsExactly(t(1000), t(2000), t(3700), t(4000));
        assertThat(live.batches()).extracting(BatchResult::outputs).containsExactly(
                List.of("in:a:timer:+1500@pt=1000,wm=0"),
                List.of(),
                List.of("timer:a:2500@pt=3700,wm=0"),
                List.of("in:b:x@pt=4000,wm=0"));
    }

    @Test
    void available_now_runs_reads_what_waits_at_each_start_and_run_what_follows() {
        Scenario<Event> scenario = Scenario.<Event>builder()
                .addData(List.of(new Event("a", 10_000, "timer:4000"), new Event("b", 1000, "x")))
                .tick(t(5000))   // the query is stopped between runs: nothing
                .start()         // batch 0 with both rows, batch 1 the no-data batch, then the run ends
                .addData(List.of(new Event("a", 3000, "late")))
                .batch(List.of(new Event("c", 20_000, "x"))) // a run of its own: batch 2, then 3
                .build();

        RunResult<String, Event, String> live = bothAgree(
                eventTimeQuery(Duration.ZERO).withTrigger(Trigger.AvailableNow()), scenario);

        assertThat(live.batches()).extracting(BatchResult::hadInput).containsExactly(true, false, true, false);
        assertThat(live.batches().get(1).outputs()).containsExactly("timer:a:4000@pt=5000,wm=5000");
        assertThat(live.batches().get(2).droppedLate()).containsExactly(new Event("a", 3000, "late"));
        assertThat(live.batches().get(3).evictionWatermark()).isEqualTo(t(15_000));
    }
}
