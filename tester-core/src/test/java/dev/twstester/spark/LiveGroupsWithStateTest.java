package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.apache.spark.SparkThrowable;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.KeyValueGroupedDataset;
import org.apache.spark.sql.streaming.GroupStateTimeout;
import org.apache.spark.sql.streaming.OutputMode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.twstester.BatchResult;
import dev.twstester.FiredTimer;
import dev.twstester.RunComparison;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.Event;
import dev.twstester.sim.LastSeen;
import dev.twstester.sim.LegacyProbe;
import dev.twstester.sim.OutEvent;
import dev.twstester.sim.TwsSimulator;

/**
 * The legacy operator's rules on live Spark: each scenario of {@code GroupsWithStateTest} runs as
 * the real {@code groupByKey(...).flatMapGroupsWithState(...)} / {@code mapGroupsWithState(...)}
 * query and on the simulator, and every batch must be equal (ids, input, late rows, watermarks,
 * timestamps, outputs with their partitions, timed-out keys with their timeouts, the three state
 * metrics). Errors must carry the same error class, and Spark's start-up checks the same messages.
 */
@Tag("live")
class LiveGroupsWithStateTest {
    private static final GroupStateTimeout PROCESSING = GroupStateTimeout.ProcessingTimeTimeout();
    private static final GroupStateTimeout EVENT = GroupStateTimeout.EventTimeTimeout();
    private static final GroupStateTimeout NONE = GroupStateTimeout.NoTimeout();

    private static Instant t(long ms) {
        return Instant.ofEpochMilli(ms);
    }

    private static Event e(String key, long ts, String cmd) {
        return new Event(key, ts, cmd);
    }

    private static TwsQuery.Builder<String, Event, String> flat(GroupStateTimeout timeout) {
        return TwsQuery.flatMapGroupsWithState(new LegacyProbe(timeout.equals(EVENT)), OutputMode.Update(), Encoders.LONG(),
                        timeout)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.STRING());
    }

    private static TwsQuery<String, Event, String> eventTime(GroupStateTimeout timeout) {
        return flat(timeout).watermark("ts", Duration.ofSeconds(10)).build();
    }

    /** Runs both engines; every batch must be equal. Returns the simulator's run. */
    private static RunResult<String, Event, String> assertAgree(TwsQuery<String, Event, String> query,
            Scenario<Event> scenario) {
        RunResult<String, Event, String> sim = new TwsSimulator<>(query).run(scenario);
        RunResult<String, Event, String> live = LiveRunner.of(query).run(scenario);
        RunComparison.simulatorVsSpark().assertSame(sim, live);
        assertThat(live.batches()).hasSameSizeAs(sim.batches());
        for (int i = 0; i < sim.batches().size(); i++) {
            assertThat(live.batches().get(i)).as("batch %d", i).isEqualTo(sim.batches().get(i));
        }
        return sim;
    }

    @Test
    void a_processing_time_timeout_fires_once_the_batch_timestamp_is_past_it() {
        RunResult<String, Event, String> run = assertAgree(flat(PROCESSING).build(), Scenario.<Event>builder()
                .batchAt(t(1000), List.of(e("a", 0, "inc;dur:1000;pt")))
                .tick(t(2000))
                .tick(t(2001))
                .build());
        assertThat(run.outputs()).containsExactly("a pt 1000", "a=1", "a timed out 1");
        assertThat(run.lastBatch().firedTimers()).containsExactly(new FiredTimer<>("a", t(2000)));
    }

    @Test
    void an_event_time_timeout_fires_once_the_watermark_is_past_it() {
        RunResult<String, Event, String> run = assertAgree(eventTime(EVENT), Scenario.<Event>builder()
                .batch(List.of(e("a", 20_000, "inc;et:+0;wm")))
                .batch(List.of(e("b", 30_000, "inc")))
                .batch(List.of(e("b", 30_001, "wm")))
                .build());
        assertThat(run.outputs()).containsExactly("a wm 0", "a=1", "b=1", "b wm 20000", "b=1", "a timed out 1");
    }

    @Test
    void every_call_resets_the_timeout_unless_it_sets_one_again() {
        RunResult<String, Event, String> run = assertAgree(flat(PROCESSING).build(), Scenario.<Event>builder()
                .batchAt(t(1000), List.of(e("a", 0, "inc;dur:500")))
                .batchAt(t(1200), List.of(e("a", 0, "peek")))
                .tick(t(5000))
                .build());
        assertThat(run.firedTimers()).isEmpty();
    }

    @Test
    void keys_with_data_come_first_and_timed_out_keys_follow_in_key_byte_order() {
        Scenario<Event> scenario = Scenario.<Event>builder()
                .batchAt(t(1000), List.of(e("aa", 0, "inc;dur:50"), e("b", 0, "inc;dur:300"), e("c", 0, "inc;dur:100"),
                        e("d", 0, "inc;dur:100")))
                .batchAt(t(2000), List.of(e("zz", 0, "inc"), e("c", 0, "inc")))
                .build();
        RunResult<String, Event, String> run = assertAgree(flat(PROCESSING).build(), scenario);
        assertThat(run.lastBatch().outputs()).containsExactly("c=2", "zz=1", "b timed out 1", "d timed out 1",
                "aa timed out 1");
        // each partition's task: its keys with data, then its timed-out keys
        assertAgree(flat(PROCESSING).shufflePartitions(2).build(), scenario);
    }

    @Test
    void no_timeout_runs_no_no_data_batch_and_drops_no_late_rows() {
        RunResult<String, Event, String> run = assertAgree(eventTime(NONE), Scenario.<Event>builder()
                .batch(List.of(e("a", 20_000, "inc")))
                .batch(List.of(e("b", 25_000, "inc")))
                .batch(List.of(e("c", 5_000, "wm")))
                .build());
        assertThat(run.batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L, 2L);
        assertThat(run.droppedLate()).isEmpty();
    }

    @Test
    void event_time_timeout_drops_late_rows() {
        RunResult<String, Event, String> run = assertAgree(eventTime(EVENT), Scenario.<Event>builder()
                .batch(List.of(e("a", 20_000, "inc")))
                .batch(List.of(e("b", 25_000, "inc")))
                .batch(List.of(e("c", 5_000, "wm"), e("c", 15_001, "wm")))
                .build());
        assertThat(run.droppedLate()).containsExactly(e("c", 5_000, "wm"));
    }

    @Test
    void removals_metrics_and_a_removed_state_with_a_timeout_agree() {
        RunResult<String, Event, String> run = assertAgree(flat(PROCESSING).build(), Scenario.<Event>builder()
                .batchAt(t(1000), List.of(e("a", 0, "inc"), e("b", 0, "remove"), e("c", 0, "peek")))
                .batchAt(t(2000), List.of(e("a", 0, "remove;dur:100")))
                .tick(t(2200))
                .build());
        assertThat(run.outputs()).containsExactly("a=1", "b=none", "c=none", "a=none", "a timed out none");
    }

    @Test
    void timed_out_calls_keep_or_rearm_and_a_restart_keeps_timeouts() {
        assertAgree(flat(PROCESSING).build(), Scenario.<Event>builder()
                .batchAt(t(1000), List.of(e("keep", 0, "inc;dur:100"), e("rearm", 0, "inc;dur:100")))
                .tick(t(1200))
                .restart()
                .tick(t(3000))
                .batchAt(t(3500), List.of(e("keep", 0, "pt")))
                .build());
    }

    @Test
    void map_groups_with_state_agrees() {
        TwsQuery<String, Event, String> query = TwsQuery.mapGroupsWithState(new LegacyProbe.AsMap(false), Encoders.LONG(),
                        PROCESSING)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.STRING())
                .build();
        RunResult<String, Event, String> run = assertAgree(query, Scenario.<Event>builder()
                .batchAt(t(1000), List.of(e("a", 0, "inc;dur:100;pt"), e("b", 0, "inc")))
                .tick(t(2000))
                .build());
        assertThat(run.outputs()).containsExactly("a pt 1000 | a=1", "b=1", "a timed out 1");
    }

    @Test
    void flat_map_groups_with_state_in_append_mode_agrees() {
        TwsQuery<String, Event, String> query = TwsQuery.flatMapGroupsWithState(new LegacyProbe(true), OutputMode.Append(),
                        Encoders.LONG(), EVENT)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.STRING())
                .watermark("ts", Duration.ofSeconds(10))
                .shufflePartitions(2)
                .build();
        assertAgree(query, Scenario.<Event>builder()
                .batch(List.of(e("a", 10_000, "et:+5000"), e("b", 12_000, "et:+1000"), e("rearm", 12_000, "et:+1")))
                .batch(List.of(e("c", 40_000, "inc")))
                .batch(List.of(e("c", 60_000, "inc")))
                .build());
    }

    @Test
    void bean_state_and_bean_output_agree_and_a_change_without_update_is_kept_only_with_a_new_timeout() {
        TwsQuery<String, Event, OutEvent> query = TwsQuery.mapGroupsWithState(new LastSeen(), Encoders.bean(OutEvent.class),
                        EVENT)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.bean(OutEvent.class))
                .watermark("ts", Duration.ofSeconds(10))
                .shufflePartitions(2)
                .build();
        Scenario<Event> scenario = Scenario.<Event>builder()
                .batch(List.of(e("a", 10_000, "x"), e("b", 10_000, "y"), e("a", 11_000, "w")))
                .batch(List.of(e("a", 12_000, "peek"), e("b", 9_000, "peek")))
                .batch(List.of(e("c", 40_000, "z")))
                .build();
        RunResult<String, Event, OutEvent> sim = new TwsSimulator<>(query).run(scenario);
        RunResult<String, Event, OutEvent> live = LiveRunner.of(query).run(scenario);

        RunComparison.simulatorVsSpark().assertSame(sim, live);
        assertThat(live.batches()).isEqualTo(sim.batches());
        // a's peek moved its timeout (16000 -> 17000), so Spark writes the row: with the changed object;
        // b's timeout stayed 15000: no write, the change is lost
        assertThat(sim.outputs()).contains(new OutEvent("a", 12_000, "changed without update"),
                new OutEvent("b", 10_000, "changed without update"),
                new OutEvent("a", 11_000, "expired after changed without update"),
                new OutEvent("b", 10_000, "expired after y"));
        assertThat(sim.firedTimers()).containsExactlyInAnyOrder(new FiredTimer<>("a", t(17_000)),
                new FiredTimer<>("b", t(15_000)));
    }

    /** The first error class in the cause chain below Spark's STREAM_FAILED wrapper. */
    static String condition(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof SparkThrowable st && st.getCondition() != null && !"STREAM_FAILED".equals(st.getCondition())) {
                return st.getCondition();
            }
        }
        return "no error class: " + t;
    }

    @ParameterizedTest(name = "{0} with {1} fails with {2}")
    @CsvSource(delimiter = '|', value = {
        "boom|none|FLATMAPGROUPSWITHSTATE_USER_FUNCTION_ERROR",
        "lazyboom|none|FLATMAPGROUPSWITHSTATE_USER_FUNCTION_ERROR",
        "null|none|FLATMAPGROUPSWITHSTATE_USER_FUNCTION_ERROR",
        "get|none|FLATMAPGROUPSWITHSTATE_USER_FUNCTION_ERROR",
        "dur:100|none|_LEGACY_ERROR_TEMP_2203",
        "wm|none|_LEGACY_ERROR_TEMP_2204",
        "at:1000|processing|_LEGACY_ERROR_TEMP_2205",
        "at:19999|event|FLATMAPGROUPSWITHSTATE_USER_FUNCTION_ERROR",
    })
    void group_state_misuse_and_user_exceptions_fail_with_the_same_error_class(String cmd, String timeout, String expected) {
        TwsQuery<String, Event, String> query = switch (timeout) {
            case "processing" -> flat(PROCESSING).build();
            case "event" -> eventTime(EVENT);
            default -> flat(NONE).build();
        };
        Scenario<Event> scenario = Scenario.<Event>builder()
                .batchAt(t(1000), List.of(e("x", 30_000, "inc")))
                .batchAt(t(2000), List.of(e("a", 30_000, cmd)))
                .build();
        Throwable sim = catchThrowable(() -> new TwsSimulator<>(query).run(scenario));
        Throwable live = catchThrowable(() -> LiveRunner.of(query).run(scenario));

        assertThat(sim).as("the simulator fails").isNotNull();
        assertThat(live).as("live Spark fails").isInstanceOf(LiveRunException.class);
        assertThat(condition(sim)).as("error class, simulator vs Spark: %s", live).isEqualTo(condition(live));
        assertThat(condition(sim)).isEqualTo(expected);
        assertThat(((LiveRunException) live).completed()).as("the batches before the failing one")
                .hasSize(timeout.equals("event") ? 2 : 1);
    }

    /**
     * Spark's start-up checks ({@code UnsupportedOperationChecker}) fail the real query with the
     * message the builder gives.
     */
    @Test
    void spark_rejects_the_output_modes_and_the_missing_watermark_the_builder_rejects() {
        var spark = LiveSpark.session();
        KeyValueGroupedDataset<String, Event> grouped = SparkStreaming.memoryStream(Encoders.bean(Event.class), spark).toDS()
                .groupByKey((MapFunction<Event, String>) Event::getKey, Encoders.STRING());

        Dataset<String> map = grouped.mapGroupsWithState(new LegacyProbe.AsMap(false), Encoders.LONG(), Encoders.STRING(),
                NONE);
        Dataset<String> flatUpdate = grouped.flatMapGroupsWithState(new LegacyProbe(false), OutputMode.Update(),
                Encoders.LONG(), Encoders.STRING(), NONE);
        Dataset<String> noWatermark = grouped.flatMapGroupsWithState(new LegacyProbe(true), OutputMode.Update(),
                Encoders.LONG(), Encoders.STRING(), EVENT);

        assertThat(startError(map, "append")).contains("mapGroupsWithState is not supported with Append output mode on "
                + "a streaming DataFrame/Dataset");
        assertThat(startError(flatUpdate, "append")).contains("flatMapGroupsWithState in update mode is not supported "
                + "with Append output mode on a streaming DataFrame/Dataset");
        assertThat(startError(noWatermark, "update")).contains("Watermark must be specified in the query using "
                + "'[Dataset/DataFrame].withWatermark()' for using event-time timeout in a [map|flatMap]GroupsWithState. "
                + "Event-time timeout not supported without watermark.");
        Throwable complete = catchThrowable(() -> grouped.flatMapGroupsWithState(new LegacyProbe(false),
                OutputMode.Complete(), Encoders.LONG(), Encoders.STRING(), NONE));
        assertThat(complete).hasMessageContaining("The output mode of function should be append or update");
    }

    private static String startError(Dataset<String> ds, String outputMode) {
        Throwable t = catchThrowable(() -> ds.writeStream().format("memory").queryName("q" + System.nanoTime())
                .outputMode(outputMode).start().stop());
        assertThat(t).as("starting in %s mode", outputMode).isNotNull();
        return t.getMessage();
    }
}
