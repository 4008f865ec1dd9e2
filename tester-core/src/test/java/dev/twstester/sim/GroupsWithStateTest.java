package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.GroupStateTimeout;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.FiredTimer;
import dev.twstester.GroupsWithState;
import dev.twstester.ProcessorException;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;

/**
 * The legacy operator's rules (Spark 4.2.0's {@code FlatMapGroupsWithStateExec} and
 * {@code GroupStateImpl}), one per test, on the simulator; {@code LiveGroupsWithStateTest} runs the
 * same scenarios on live Spark.
 */
class GroupsWithStateTest {
    static final GroupStateTimeout PROCESSING = GroupStateTimeout.ProcessingTimeTimeout();
    static final GroupStateTimeout EVENT = GroupStateTimeout.EventTimeTimeout();
    static final GroupStateTimeout NONE = GroupStateTimeout.NoTimeout();

    static Instant t(long ms) {
        return Instant.ofEpochMilli(ms);
    }

    static Event e(String key, long ts, String cmd) {
        return new Event(key, ts, cmd);
    }

    /** The probe as flatMapGroupsWithState(Update), keyed by {@code Event.key}. */
    static TwsQuery.Builder<String, Event, String> flat(GroupStateTimeout timeout) {
        return TwsQuery.flatMapGroupsWithState(new LegacyProbe(timeout.equals(EVENT)), OutputMode.Update(), Encoders.LONG(),
                        timeout)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.STRING());
    }

    static TwsQuery.Builder<String, Event, String> map(GroupStateTimeout timeout) {
        return TwsQuery.mapGroupsWithState(new LegacyProbe.AsMap(timeout.equals(EVENT)), Encoders.LONG(), timeout)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.STRING());
    }

    static TwsQuery<String, Event, String> eventTime(GroupStateTimeout timeout) {
        return flat(timeout).watermark("ts", Duration.ofSeconds(10)).build();
    }

    @Test
    void the_query_takes_its_time_mode_and_output_mode_from_the_function() {
        TwsQuery<String, Event, String> query = flat(PROCESSING).build();
        assertThat(query.timeMode()).isEqualTo(TimeMode.ProcessingTime());
        assertThat(query.outputMode()).isEqualTo(OutputMode.Update());
        assertThat(eventTime(EVENT).timeMode()).isEqualTo(TimeMode.EventTime());
        assertThat(flat(NONE).build().timeMode()).isEqualTo(TimeMode.None());
        GroupsWithState<String, Event, ?, String> f = query.groupsWithState().orElseThrow();
        assertThat(f.operatorName()).isEqualTo("flatMapGroupsWithState");
        assertThat(f.timeout()).isEqualTo(PROCESSING);
        assertThat(query.userClass()).isEqualTo(LegacyProbe.class);
        assertThat(map(NONE).build().groupsWithState().orElseThrow().isMapGroupsWithState()).isTrue();
        assertThatThrownBy(query::newProcessor).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("runs a flatMapGroupsWithState function (dev.twstester.sim.LegacyProbe)");
    }

    @Test
    void a_processing_time_timeout_fires_once_the_batch_timestamp_is_past_it_not_at_it() {
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(flat(PROCESSING).build());

        assertThat(sim.runBatchAt(t(1000), List.of(e("a", 0, "inc;dur:1000"))).outputs()).containsExactly("a=1");
        assertThat(sim.state().timers("a")).containsExactly(t(2000));
        RunResult<String, Event, String> at = sim.setProcessingTime(t(2000));
        RunResult<String, Event, String> after = sim.setProcessingTime(t(2001));

        assertThat(at.batches()).singleElement().satisfies(b -> {
            assertThat(b.hadInput()).isFalse();
            assertThat(b.outputs()).isEmpty();
        });
        assertThat(after.outputs()).containsExactly("a timed out 1");
        assertThat(after.firedTimers()).containsExactly(new FiredTimer<>("a", t(2000)));
        assertThat(sim.state().hasState("a")).as("the timed-out call removed the state").isFalse();
    }

    @Test
    void an_event_time_timeout_fires_once_the_watermark_is_past_it_not_at_it() {
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(eventTime(EVENT));

        RunResult<String, Event, String> first = sim.runBatch(e("a", 20_000, "inc;et:+0"));
        RunResult<String, Event, String> atTimeout = sim.runBatch(e("b", 30_000, "inc"));
        RunResult<String, Event, String> past = sim.runBatch(e("b", 30_001, "inc"));

        assertThat(first.batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L);
        assertThat(first.outputs()).containsExactly("a=1");
        assertThat(atTimeout.batches()).extracting(BatchResult::evictionWatermark).containsExactly(t(10_000), t(20_000));
        assertThat(atTimeout.outputs()).as("watermark 20000 = timeout: no time-out").containsExactly("b=1");
        assertThat(past.batches()).extracting(BatchResult::evictionWatermark).containsExactly(t(20_000), t(20_001));
        assertThat(past.outputs()).containsExactly("b=2", "a timed out 1");
        assertThat(past.lastBatch().firedTimers()).containsExactly(new FiredTimer<>("a", t(20_000)));
    }

    @Test
    void every_call_resets_the_timeout_unless_it_sets_one_again() {
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(flat(PROCESSING).build());
        sim.runBatchAt(t(1000), List.of(e("a", 0, "inc;dur:500")));
        sim.runBatchAt(t(1200), List.of(e("a", 0, "peek")));

        RunResult<String, Event, String> later = sim.setProcessingTime(t(5000));

        assertThat(later.outputs()).isEmpty();
        assertThat(sim.state().timers("a")).isEmpty();
        assertThat(sim.state().<Long>value(GroupsWithState.STATE_VARIABLE, "a")).contains(1L);
    }

    @Test
    void keys_with_data_come_first_do_not_time_out_and_timed_out_keys_follow_in_key_byte_order() {
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(flat(PROCESSING).build());
        sim.runBatchAt(t(1000), List.of(e("aa", 0, "inc;dur:50"), e("b", 0, "inc;dur:300"), e("c", 0, "inc;dur:100"),
                e("d", 0, "inc;dur:100")));

        RunResult<String, Event, String> run = sim.runBatchAt(t(2000), List.of(e("zz", 0, "inc"), e("c", 0, "inc")));

        // UnsafeRow bytes: a string's length comes before its bytes, so "b" and "d" sort before "aa";
        // a transformWithState timer would fire by expiry instead (aa, d, b)
        assertThat(run.outputs()).containsExactly("c=2", "zz=1", "b timed out 1", "d timed out 1", "aa timed out 1");
        assertThat(run.firedTimers()).containsExactly(new FiredTimer<>("b", t(1300)), new FiredTimer<>("d", t(1100)),
                new FiredTimer<>("aa", t(1050)));
    }

    @Test
    void no_timeout_runs_no_no_data_batch_after_a_watermark_advance_event_time_timeout_does() {
        RunResult<String, Event, String> none = new TwsSimulator<>(eventTime(NONE)).runBatch(e("a", 20_000, "inc"));
        RunResult<String, Event, String> event = new TwsSimulator<>(eventTime(EVENT)).runBatch(e("a", 20_000, "inc"));

        assertThat(none.batches()).extracting(BatchResult::batchId).containsExactly(0L);
        assertThat(event.batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L);
    }

    @Test
    void only_event_time_timeout_drops_late_rows() {
        TwsSimulator<String, Event, String> none = new TwsSimulator<>(eventTime(NONE));
        none.runBatch(e("a", 20_000, "inc"));
        none.runBatch(e("b", 25_000, "inc"));
        RunResult<String, Event, String> late = none.runBatch(e("c", 5_000, "wm"));

        assertThat(late.lastBatch().lateWatermark()).isEqualTo(t(10_000));
        assertThat(late.droppedLate()).isEmpty();
        assertThat(late.outputs()).containsExactly("c wm 15000", "c=none");
        assertThat(late.lastBatch().metrics()).containsEntry("numRowsDroppedByWatermark", 0L);

        TwsSimulator<String, Event, String> event = new TwsSimulator<>(eventTime(EVENT));
        event.runBatch(e("a", 20_000, "inc"));
        event.runBatch(e("b", 25_000, "inc"));
        RunResult<String, Event, String> dropped = event.runBatch(e("c", 5_000, "wm"));
        assertThat(dropped.droppedLate()).containsExactly(e("c", 5_000, "wm"));
        assertThat(dropped.outputs()).isEmpty();
        assertThat(dropped.lastBatch().metrics()).containsEntry("numRowsDroppedByWatermark", 1L);
    }

    @Test
    void the_batch_reports_the_operators_three_state_metrics() {
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(flat(PROCESSING).build());

        RunResult<String, Event, String> run = sim.runBatchAt(t(1000),
                List.of(e("a", 0, "inc"), e("b", 0, "remove"), e("c", 0, "peek")));

        // b: removed with no timeout deletes the (missing) row and counts it; c: nothing to write
        assertThat(run.lastBatch().metrics()).isEqualTo(
                Map.of("numUpdatedStateRows", 1L, "numRemovedStateRows", 1L, "numRowsDroppedByWatermark", 0L));
    }

    @Test
    void a_removed_state_with_a_timeout_still_times_out_with_no_state() {
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(flat(PROCESSING).build());
        sim.runBatchAt(t(1000), List.of(e("a", 0, "inc")));

        RunResult<String, Event, String> removed = sim.runBatchAt(t(2000), List.of(e("a", 0, "remove;dur:100")));
        assertThat(removed.outputs()).containsExactly("a=none");
        assertThat(removed.lastBatch().metrics()).containsEntry("numUpdatedStateRows", 1L)
                .containsEntry("numRemovedStateRows", 0L);
        assertThat(sim.state().timers("a")).containsExactly(t(2100));

        RunResult<String, Event, String> timedOut = sim.setProcessingTime(t(2200));
        assertThat(timedOut.outputs()).containsExactly("a timed out none");
        assertThat(timedOut.lastBatch().metrics()).containsEntry("numRemovedStateRows", 1L);
        assertThat(sim.state().hasState("a")).isFalse();
    }

    @Test
    void a_timed_out_call_that_sets_nothing_keeps_the_state_without_a_timeout() {
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(flat(PROCESSING).build());
        sim.runBatchAt(t(1000), List.of(e("keep", 0, "inc;dur:100"), e("rearm", 0, "inc;dur:100")));

        RunResult<String, Event, String> run = sim.setProcessingTime(t(1200));
        sim.setProcessingTime(t(3000));

        assertThat(run.outputs()).containsExactly("keep timed out 1", "rearm timed out 1");
        assertThat(sim.state().<Long>value(GroupsWithState.STATE_VARIABLE, "keep")).contains(1L);
        assertThat(sim.state().timers("keep")).isEmpty();
        assertThat(sim.history().outputs()).containsSubsequence("rearm timed out 1", "rearm timed out 1");
    }

    @Test
    void map_groups_with_state_emits_one_row_per_call_timed_out_calls_included() {
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(map(PROCESSING).build());

        assertThat(sim.runBatchAt(t(1000), List.of(e("a", 0, "inc;dur:100;pt"))).outputs()).containsExactly("a pt 1000 | a=1");
        assertThat(sim.setProcessingTime(t(2000)).outputs()).containsExactly("a timed out 1");
    }

    @Test
    void state_can_be_written_before_the_first_batch_and_read_after_it() {
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(flat(NONE).build());
        sim.state().setValue(GroupsWithState.STATE_VARIABLE, "z", 41L);

        assertThat(sim.runBatch(e("z", 0, "inc")).outputs()).containsExactly("z=42");
        assertThat(sim.state().<Long>value(GroupsWithState.STATE_VARIABLE, "z")).contains(42L);
    }

    @Test
    void fast_fidelity_and_retried_batches_give_the_same_run() {
        dev.twstester.Scenario<Event> scenario = dev.twstester.Scenario.<Event>builder()
                .batchAt(t(1000), List.of(e("a", 0, "inc;dur:100"), e("keep", 0, "inc;dur:50"), e("b", 0, "remove;dur:10")))
                .tick(t(1200))
                .batchAt(t(1300), List.of(e("a", 0, "inc;pt"), e("keep", 0, "peek")))
                .restart()
                .tick(t(5000))
                .build();
        RunResult<String, Event, String> full = new TwsSimulator<>(flat(PROCESSING).build()).run(scenario);
        RunResult<String, Event, String> fast = new TwsSimulator<>(flat(PROCESSING).build(), Fidelity.FAST).run(scenario);
        RunResult<String, Event, String> retried = TwsSimulator.builder(flat(PROCESSING).build()).checkRetries().build()
                .run(scenario);

        assertThat(full.outputs()).containsExactly("a=1", "b=none", "keep=1", "a timed out 1", "b timed out none",
                "keep timed out 1", "a pt 1300", "a=1", "keep=1");
        assertThat(fast.batches()).isEqualTo(full.batches());
        assertThat(retried.batches()).isEqualTo(full.batches());
    }

    @Test
    void a_snapshot_keeps_state_and_timeouts() {
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(flat(PROCESSING).build());
        sim.runBatchAt(t(1000), List.of(e("a", 0, "inc;dur:100")));
        StateSnapshot snapshot = sim.snapshot();

        TwsSimulator<String, Event, String> restored = new TwsSimulator<>(flat(PROCESSING).build());
        restored.restore(snapshot);

        assertThat(restored.state().timers("a")).containsExactly(t(1100));
        assertThat(restored.runBatchAt(t(2000), List.of(e("b", 0, "inc"))).outputs()).containsExactly("b=1", "a timed out 1");
    }

    @Test
    void the_functions_own_exceptions_fail_the_batch_with_flatmapgroupswithstate_user_function_error() {
        for (String cmd : List.of("boom", "lazyboom", "null")) {
            TwsSimulator<String, Event, String> sim = new TwsSimulator<>(flat(NONE).build());
            Throwable thrown = catchThrowable(() -> sim.runBatch(e("a", 0, cmd)));
            assertThat(thrown).as(cmd).isInstanceOf(ProcessorException.class);
            assertThat(((SparkThrowable) thrown).getCondition()).isEqualTo("FLATMAPGROUPSWITHSTATE_USER_FUNCTION_ERROR");
            assertThat(thrown.getMessage()).startsWith("[FLATMAPGROUPSWITHSTATE_USER_FUNCTION_ERROR] An error occurred in "
                    + "the user provided function in flatMapGroupsWithState. Reason: ");
            assertThat(((ProcessorException) thrown).function()).isEqualTo("flatMapGroupsWithState");
            assertThat(sim.nextBatchId()).as("the failed batch commits nothing").isZero();
        }
        Throwable nullState = catchThrowable(() -> new TwsSimulator<>(flat(NONE).build()).runBatch(e("a", 0, "null")));
        assertThat(nullState.getCause()).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'null' is not a valid state value");
    }

    @Test
    void group_state_misuse_fails_as_spark_does() {
        Throwable duration = catchThrowable(() -> new TwsSimulator<>(flat(NONE).build()).runBatch(e("a", 0, "inc;dur:100")));
        Throwable noWatermark = catchThrowable(() -> new TwsSimulator<>(flat(NONE).build()).runBatch(e("a", 0, "wm")));
        TwsSimulator<String, Event, String> event = new TwsSimulator<>(eventTime(EVENT));
        event.runBatch(e("a", 30_000, "inc"));
        Throwable beforeWatermark = catchThrowable(() -> event.runBatch(e("a", 30_000, "at:19999")));

        assertThat(duration).isInstanceOf(SparkThrowable.class).isNotInstanceOf(ProcessorException.class)
                .hasMessageContaining("Cannot set timeout duration without enabling processing time timeout");
        assertThat(noWatermark).isInstanceOf(SparkThrowable.class).isNotInstanceOf(ProcessorException.class)
                .hasMessageContaining("Cannot get event time watermark timestamp without setting watermark");
        assertThat(beforeWatermark).isInstanceOf(ProcessorException.class)
                .hasMessageContaining("Timeout timestamp (19999) cannot be earlier than the current watermark (20000)");
    }

    @Test
    void the_query_is_checked_as_spark_checks_it_when_it_starts() {
        assertThatThrownBy(() -> map(NONE).outputMode(OutputMode.Append()).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("mapGroupsWithState is not supported with Append output mode on a streaming DataFrame/Dataset");
        assertThatThrownBy(() -> flat(NONE).outputMode(OutputMode.Append()).build())
                .hasMessageContaining("flatMapGroupsWithState in update mode is not supported with Append output mode");
        assertThatThrownBy(() -> flat(EVENT).build())
                .hasMessageContaining("Watermark must be specified in the query using '[Dataset/DataFrame].withWatermark()' "
                        + "for using event-time timeout");
        assertThatThrownBy(() -> TwsQuery.flatMapGroupsWithState(new LegacyProbe(false), OutputMode.Complete(),
                Encoders.LONG(), NONE)).hasMessageContaining("The output mode of function should be append or update");
        assertThatThrownBy(() -> flat(NONE).timeMode(TimeMode.ProcessingTime()).build())
                .hasMessageContaining("its NoTimeout decides when batches run; remove timeMode(");
        TwsQuery<String, Event, String> append = TwsQuery.flatMapGroupsWithState(new LegacyProbe(false), OutputMode.Append(),
                        Encoders.LONG(), NONE)
                .keyBy(Event::getKey, Encoders.STRING()).input(Encoders.bean(Event.class)).output(Encoders.STRING())
                .outputMode(OutputMode.Append()).build();
        assertThat(append.outputMode()).isEqualTo(OutputMode.Append());
        assertThat(new TwsSimulator<>(append).runBatch(e("a", 0, "inc")).outputs()).containsExactly("a=1");
    }

    @Test
    void a_map_groups_with_state_function_returning_null_emits_a_null_row_or_fails_for_a_bean_output() {
        TwsQuery<String, Event, String> strings = TwsQuery.mapGroupsWithState(new ReturnsNull<>("x"), Encoders.LONG(), NONE)
                .keyBy(Event::getKey, Encoders.STRING()).input(Encoders.bean(Event.class)).output(Encoders.STRING()).build();
        TwsSimulator<String, Event, String> sim = new TwsSimulator<>(strings);
        List<String> expected = new java.util.ArrayList<>();
        expected.add("x");
        expected.add(null);
        assertThat(sim.runBatch(e("a", 0, "x"), e("n", 0, "x")).outputs()).isEqualTo(expected);
        assertThat(sim.state().value(GroupsWithState.STATE_VARIABLE, "n")).contains(1L);
        String json = dev.twstester.io.RunResultJson.write(sim.history(), strings);
        assertThat(dev.twstester.io.RunResultJson.read(json, strings).outputs()).isEqualTo(expected);
        assertThat(new TwsSimulator<>(strings, Fidelity.FAST).runBatch(e("n", 0, "x")).outputs()).containsExactly((String) null);

        TwsQuery<String, Event, OutEvent> beans = TwsQuery.mapGroupsWithState(new ReturnsNull<>(new OutEvent("a", 1, "x")),
                        Encoders.LONG(), NONE)
                .keyBy(Event::getKey, Encoders.STRING()).input(Encoders.bean(Event.class))
                .output(Encoders.bean(OutEvent.class)).build();
        Throwable thrown = catchThrowable(() -> new TwsSimulator<>(beans).runBatch(e("n", 0, "x")));
        assertThat(thrown).isInstanceOf(SparkThrowable.class).hasMessageContaining("top level Product or row object");
        assertThat(((SparkThrowable) thrown).getCondition()).isEqualTo("NOT_NULL_ASSERT_VIOLATION");
    }
}
