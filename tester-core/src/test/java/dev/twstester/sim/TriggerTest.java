package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;

/**
 * The simulator's trigger model without Spark: when rows wait, when a trigger runs, stop and start.
 * {@code LiveTriggerTest} pins the same rules against live Spark.
 */
class TriggerTest {

    private static Instant t(long ms) {
        return Instant.ofEpochMilli(ms);
    }

    private static TwsQuery<String, Event, String> query(TimeMode mode, long intervalMs) {
        TwsQuery.Builder<String, Event, String> b = TwsQuery.builder(TickProcessor::new)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.STRING())
                .timeMode(mode);
        if (intervalMs >= 0) {
            b.trigger(Trigger.ProcessingTime(intervalMs));
        }
        if (mode.equals(TimeMode.EventTime())) {
            b.watermark("ts", Duration.ofSeconds(5));
        }
        return b.build();
    }

    private static List<Instant> times(RunResult<?, ?, ?> run) {
        return run.batches().stream().map(BatchResult::batchTimestamp).toList();
    }

    @Test
    void with_the_default_trigger_added_rows_run_at_once_and_the_no_data_batch_follows() {
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(query(TimeMode.EventTime(), -1));
        assertThat(sim.query().triggerIntervalMs()).isZero();
        assertThat(sim.query().trigger()).isEqualTo(Trigger.ProcessingTime(0L));

        RunResult<String, Event, String> ran = sim.addData(new Event("a", 10_000, "timer:4000"));

        assertThat(ran.batches()).extracting(BatchResult::hadInput).containsExactly(true, false);
        assertThat(ran.batches().get(1).outputs()).containsExactly("timer:a:4000@pt=0,wm=5000");
        assertThat(sim.waitingRows()).isEmpty();
        assertThat(sim.nextTriggerTime()).isEqualTo(t(0));
        assertThat(sim.setProcessingTime(t(5000)).batches()).isEmpty();
    }

    @Test
    void with_an_interval_rows_wait_for_the_next_trigger_time_and_a_jump_runs_one_trigger() {
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(query(TimeMode.EventTime(), 1000));

        assertThat(sim.addData(new Event("a", 10_000, "x")).batches()).isEmpty();
        assertThat(sim.addData(new Event("b", 11_000, "x")).batches()).isEmpty();
        assertThat(sim.waitingRows()).extracting(Event::getKey).containsExactly("a", "b");
        assertThat(sim.nextTriggerTime()).isEqualTo(t(1000));
        assertThat(sim.setProcessingTime(t(999)).batches()).isEmpty();

        RunResult<String, Event, String> jump = sim.setProcessingTime(t(4321));

        // one data batch with both arrivals, at the new time; the no-data batch waits for 5000
        assertThat(jump.batches()).singleElement().satisfies(b -> {
            assertThat(b.batchTimestamp()).isEqualTo(t(4321));
            assertThat(b.outputs()).containsExactly("in:a:x@pt=4321,wm=0", "in:b:x@pt=4321,wm=0");
        });
        assertThat(sim.nextTriggerTime()).isEqualTo(t(5000));
        assertThat(sim.noDataBatchPending()).isTrue();
        assertThat(sim.setProcessingTime(t(4999)).batches()).isEmpty();
        assertThat(times(sim.setProcessingTime(t(5000)))).containsExactly(t(5000));
        assertThat(sim.noDataBatchPending()).isFalse();
        assertThat(sim.setProcessingTime(t(6000)).batches()).as("an idle trigger in EventTime").isEmpty();
    }

    @Test
    void run_batch_with_an_interval_moves_the_clock_to_the_next_trigger_and_leaves_the_no_data_batch_pending() {
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(query(TimeMode.EventTime(), 60_000));
        sim.setProcessingTime(t(90_000));

        RunResult<String, Event, String> ran = sim.runBatch(new Event("a", 10_000, "timer:4000"));

        assertThat(times(ran)).containsExactly(t(120_000));
        assertThat(sim.processingTime()).isEqualTo(t(120_000));
        RunResult<String, Event, String> next = sim.advanceWatermarkTo(t(6000));
        assertThat(next.batches()).as("pending until the next trigger").isEmpty();
        assertThat(sim.setProcessingTime(t(180_000)).batches()).singleElement()
                .satisfies(b -> assertThat(b.outputs()).containsExactly("timer:a:4000@pt=180000,wm=6000"));
    }

    @Test
    void run_batch_at_a_time_without_a_trigger_says_when_the_next_one_runs() {
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(query(TimeMode.EventTime(), 1000));

        assertThatThrownBy(() -> sim.runBatchAt(t(500), List.of(new Event("a", 1, "x"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no trigger runs at 1970-01-01T00:00:00.500Z: with a trigger interval of 1000 ms the next "
                        + "one runs at 1970-01-01T00:00:01Z; use addData(rows) and move the clock, or runBatch(rows) "
                        + "for the next trigger");
        assertThat(times(sim.runBatchAt(t(1500), List.of(new Event("a", 1, "x"))))).containsExactly(t(1500));
    }

    @Test
    void a_stopped_query_runs_nothing_and_its_start_reads_the_waiting_rows() {
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(query(TimeMode.EventTime(), -1));
        sim.addData(new Event("a", 10_000, "timer:4000")); // batches 0 and 1
        sim.stop();

        assertThat(sim.isRunning()).isFalse();
        assertThat(sim.addData(new Event("a", 3000, "x")).batches()).isEmpty();
        assertThatThrownBy(() -> sim.runBatch(new Event("a", 1, "y")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the query is stopped: start() it before you run a batch (rows added while it is "
                        + "stopped wait in the source)");
        assertThatThrownBy(sim::stop).isInstanceOf(IllegalStateException.class);

        RunResult<String, Event, String> started = sim.start();

        // the row at 3000 is before the watermark 5000 and was late only against it: it is dropped
        assertThat(started.batches()).singleElement().satisfies(b -> {
            assertThat(b.batchId()).isEqualTo(2);
            assertThat(b.droppedLate()).containsExactly(new Event("a", 3000, "x"));
        });
        assertThatThrownBy(sim::start).isInstanceOf(IllegalStateException.class)
                .hasMessage("the query is already running; stop() it first, or use restart()");
    }

    @Test
    void processing_time_mode_with_a_zero_interval_reads_added_rows_at_the_next_clock_move() {
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(query(TimeMode.ProcessingTime(), -1));

        assertThat(sim.addData(new Event("a", 0, "timer:+100")).batches()).isEmpty();
        assertThat(times(sim.setProcessingTime(t(1000)))).containsExactly(t(1000));
        assertThat(times(sim.setProcessingTime(t(1050)))).as("every clock move is a trigger").containsExactly(t(1050));
        assertThat(sim.setProcessingTime(t(1050)).batches()).as("no move, no trigger").isEmpty();
        // runBatch claims the current time, as Spark's endless trigger loop would read rows at once
        assertThat(times(sim.runBatch(new Event("b", 0, "x")))).containsExactly(t(1050));
    }

    @Test
    void a_one_key_batch_refuses_rows_already_waiting() {
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(query(TimeMode.EventTime(), 1000));
        sim.addData(new Event("b", 1, "x"));

        assertThatThrownBy(() -> sim.test("a", List.of(new Event("a", 1, "x"))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("1 rows added earlier wait in the source and would join this one-key batch; run them "
                        + "first (move the clock to 1970-01-01T00:00:01Z) or use runBatch(rows)");
    }

    @Test
    void triggers_other_than_processing_time_and_available_now_are_refused_with_what_is_supported() {
        assertThatThrownBy(() -> TwsQuery.builder(TickProcessor::new).trigger(Trigger.Continuous(1000)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("trigger ContinuousTrigger(1000) is not modelled: use Trigger.ProcessingTime(...)");
    }

    @Test
    void available_now_runs_the_waiting_rows_and_what_follows_at_each_start_and_then_ends() {
        TwsQuery<String, Event, String> query = query(TimeMode.EventTime(), -1).withTrigger(Trigger.AvailableNow());
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(query);

        assertThat(sim.isRunning()).as("the construction's run found nothing and ended").isFalse();
        assertThat(sim.addData(new Event("a", 10_000, "timer:4000")).batches()).isEmpty();
        assertThat(sim.addData(new Event("b", 1000, "x")).batches()).isEmpty();
        assertThat(sim.setProcessingTime(t(5000)).batches()).isEmpty();

        RunResult<String, Event, String> run = sim.start();

        // one data batch with both rows, then the no-data batch the watermark advance asks for
        assertThat(run.batches()).extracting(BatchResult::hadInput).containsExactly(true, false);
        assertThat(run.batches().get(0).outputs()).containsExactly("in:a:timer:4000@pt=5000,wm=0", "in:b:x@pt=5000,wm=0");
        assertThat(run.batches().get(1).outputs()).containsExactly("timer:a:4000@pt=5000,wm=5000");
        assertThat(sim.isRunning()).isFalse();
        // runBatch is one run of its own
        assertThat(sim.runBatch(new Event("c", 11_000, "x")).batches()).extracting(BatchResult::hadInput)
                .containsExactly(true, false);
    }

    @Test
    void available_now_in_processing_time_mode_is_refused_because_spark_never_ends_it() {
        TwsQuery<String, Event, String> query = query(TimeMode.ProcessingTime(), -1).withTrigger(Trigger.AvailableNow());

        assertThatThrownBy(() -> new TwsSimulator<>(query))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Trigger.AvailableNow() with TimeMode.ProcessingTime() never ends in Spark 4.2.0");
    }
}
