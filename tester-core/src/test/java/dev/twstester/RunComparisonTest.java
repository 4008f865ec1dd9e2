package dev.twstester;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;
import org.junit.jupiter.api.Test;

import dev.twstester.RunDifference.Aspect;
import dev.twstester.sim.TwsSimulator;

import scala.jdk.javaapi.CollectionConverters;

/** RunComparison: the first difference of each kind, with its exact message, and no difference for equal runs. */
class RunComparisonTest {
    private static final RunComparison<String> COMPARE = RunComparison.simulatorVsSpark()
            .<String>outputKey(row -> row.substring(0, row.indexOf(':')));

    private static Instant s(long seconds) {
        return Instant.ofEpochSecond(seconds);
    }

    private static BatchResult<String, String, String> data(long id, List<String> outputs) {
        return new BatchResult<>(id, true, List.of("ana,x", "bob,y"), List.of(), s(0), s(0), s(id), outputs, List.of());
    }

    private static BatchResult<String, String, String> noData(long id, Instant watermark, List<String> outputs,
            List<FiredTimer<String>> timers) {
        return new BatchResult<>(id, false, List.of(), List.of(), s(0), watermark, s(id), outputs, timers);
    }

    @SafeVarargs
    private static RunResult<String, String, String> run(BatchResult<String, String, String>... batches) {
        return new RunResult<>(List.of(batches));
    }

    private static RunResult<String, String, String> reference() {
        return run(data(0, List.of("bob:1", "ana:1", "ana:2")),
                noData(1, s(20), List.of("ana:timer"), List.of(new FiredTimer<>("ana", s(5)))));
    }

    @Test
    void equal_runs_have_no_difference() {
        assertThat(COMPARE.firstDifference(reference(), reference())).isEmpty();
        assertThat(COMPARE.differences(reference(), reference())).isEmpty();
        assertThatCode(() -> COMPARE.assertSame(reference(), reference())).doesNotThrowAnyException();
        assertThat(COMPARE.ordered(false).differences(reference(), reference())).isEmpty();
    }

    @Test
    void a_watermark_difference_names_the_batch_and_shows_both_sides() {
        RunResult<String, String, String> spark = run(reference().batches().get(0),
                noData(1, s(10), List.of("ana:timer"), List.of(new FiredTimer<>("ana", s(5)))));
        RunDifference d = COMPARE.firstDifference(reference(), spark).orElseThrow();
        assertThat(d.batchId()).isEqualTo(1);
        assertThat(d.aspect()).isEqualTo(Aspect.EVICTION_WATERMARK);
        assertThat(d.key()).isNull();
        assertThat(d.left()).isEqualTo(s(20));
        assertThat(d.right()).isEqualTo(s(10));
        assertThat(d.message()).isEqualTo("""
                batch 1 (no-data batch): eviction watermark differs
                  simulator: 1970-01-01T00:00:20Z
                  spark:     1970-01-01T00:00:10Z""");
    }

    @Test
    void ordered_outputs_differ_at_the_first_differing_row_which_is_marked() {
        RunResult<String, String, String> spark = run(data(0, List.of("bob:1", "ana:1", "ana:3")),
                reference().batches().get(1));
        RunDifference d = COMPARE.firstDifference(reference(), spark).orElseThrow();
        assertThat(d.aspect()).isEqualTo(Aspect.OUTPUTS);
        assertThat(d.key()).isEqualTo("ana");
        assertThat(d.left()).isEqualTo(List.of("bob:1", "ana:1", "ana:2"));
        assertThat(d.message()).isEqualTo("""
                batch 0 (data batch), key ana: outputs differ at row 2
                  simulator: [bob:1, ana:1, >>ana:2<<]
                  spark:     [bob:1, ana:1, >>ana:3<<]""");
    }

    @Test
    void ordered_outputs_of_different_length_and_in_another_order() {
        RunResult<String, String, String> shorter = run(data(0, List.of("bob:1", "ana:1")), reference().batches().get(1));
        assertThat(COMPARE.firstDifference(reference(), shorter).orElseThrow().message()).isEqualTo("""
                batch 0 (data batch), key ana: outputs differ at row 2; simulator has 3, spark 2
                  simulator: [bob:1, ana:1, >>ana:2<<]
                  spark:     [bob:1, ana:1, >>(none)<<]""");
        RunResult<String, String, String> reordered = run(data(0, List.of("ana:1", "ana:2", "bob:1")),
                reference().batches().get(1));
        assertThat(COMPARE.firstDifference(reference(), reordered).orElseThrow().message()).isEqualTo("""
                batch 0 (data batch), key bob: outputs differ at row 0
                  simulator: [>>bob:1<<, ana:1, ana:2]
                  spark:     [>>ana:1<<, ana:2, bob:1]
                  the same rows in another order; ordered(false) compares them as multisets""");
        assertThat(COMPARE.ordered(false).firstDifference(reference(), reordered)).isEmpty();
    }

    @Test
    void unordered_outputs_show_what_only_each_side_has() {
        RunResult<String, String, String> spark = run(data(0, List.of("ana:1", "bob:1", "ana:3", "ana:3")),
                reference().batches().get(1));
        RunDifference d = COMPARE.ordered(false).firstDifference(reference(), spark).orElseThrow();
        assertThat(d.aspect()).isEqualTo(Aspect.OUTPUTS);
        assertThat(d.key()).isEqualTo("ana");
        assertThat(d.message()).isEqualTo("""
                batch 0 (data batch), key ana: outputs differ (compared as multisets)
                  simulator: [bob:1, ana:1, ana:2]
                  spark:     [ana:1, bob:1, ana:3, ana:3]
                  only in simulator: [ana:2]
                  only in spark:     [ana:3, ana:3]""");
    }

    @Test
    void a_missing_batch_is_a_batch_count_difference_listing_the_extra_batch() {
        RunResult<String, String, String> spark = run(reference().batches().get(0));
        RunDifference d = COMPARE.firstDifference(reference(), spark).orElseThrow();
        assertThat(d.aspect()).isEqualTo(Aspect.BATCH_COUNT);
        assertThat(d.batchId()).isEqualTo(1);
        assertThat(d.left()).isEqualTo(2);
        assertThat(d.right()).isEqualTo(1);
        assertThat(d.message()).isEqualTo("""
                batch count differs: simulator ran 2 batches, spark ran 1 batch
                  only in simulator: batch 1 (no data): rows in 0, dropped late 0, watermark late=1970-01-01T00:00:00Z \
                eviction=1970-01-01T00:00:20Z, processing time 1970-01-01T00:00:01Z, outputs 1, timers fired 1""");
    }

    @Test
    void a_fired_timer_difference_names_the_timers_key() {
        RunResult<String, String, String> spark = run(reference().batches().get(0),
                noData(1, s(20), List.of("ana:timer"), List.of(new FiredTimer<>("ana", s(5)), new FiredTimer<>("bob", s(7)))));
        RunDifference d = COMPARE.firstDifference(reference(), spark).orElseThrow();
        assertThat(d.aspect()).isEqualTo(Aspect.FIRED_TIMERS);
        assertThat(d.key()).isEqualTo("bob");
        assertThat(d.message()).isEqualTo("""
                batch 1 (no-data batch), key bob: fired timers differ at timer 1; simulator has 1, spark 2
                  simulator: [ana@1970-01-01T00:00:05Z, >>(none)<<]
                  spark:     [ana@1970-01-01T00:00:05Z, >>bob@1970-01-01T00:00:07Z<<]""");
        assertThat(COMPARE.ordered(false).firstDifference(reference(), spark).orElseThrow().message()).isEqualTo("""
                batch 1 (no-data batch), key bob: fired timers differ (compared as multisets)
                  simulator: [ana@1970-01-01T00:00:05Z]
                  spark:     [ana@1970-01-01T00:00:05Z, bob@1970-01-01T00:00:07Z]
                  only in simulator: []
                  only in spark:     [bob@1970-01-01T00:00:07Z]""");
    }

    @Test
    void ignored_aspects_are_left_out_and_the_rest_still_compared() {
        RunResult<String, String, String> port = run(reference().batches().get(0),
                noData(1, s(20), List.of("ana:timer"), List.of(new FiredTimer<>("ana", s(6)))));
        assertThat(COMPARE.differences(reference(), port)).extracting(RunDifference::aspect)
                .containsExactly(Aspect.FIRED_TIMERS);
        RunComparison<String> outputsOnly = COMPARE.ignoring(Aspect.FIRED_TIMERS, Aspect.METRICS);
        assertThat(outputsOnly.differences(reference(), port)).isEmpty();
        assertThat(outputsOnly.toString()).isEqualTo(
                "RunComparison[simulator vs spark, ordered, ignoring [fired timers, metrics]]");

        RunResult<String, String, String> shorter = run(data(0, List.of("bob:1", "ana:1", "ana:9")));
        assertThat(outputsOnly.differences(reference(), shorter)).extracting(RunDifference::aspect)
                .containsExactly(Aspect.OUTPUTS, Aspect.BATCH_COUNT);
        assertThat(outputsOnly.ignoring(Aspect.BATCH_COUNT).differences(reference(), shorter))
                .extracting(RunDifference::aspect).containsExactly(Aspect.OUTPUTS);
    }

    @Test
    void other_batch_fields_and_the_order_of_all_differences() {
        BatchResult<String, String, String> sim = reference().batches().get(0);
        BatchResult<String, String, String> spark = new BatchResult<>(0, true, List.of("ana,x"), List.of("ana,x"),
                s(1), s(0), s(9), sim.outputs(), List.of());
        List<RunDifference> all = COMPARE.differences(run(sim), run(spark));
        assertThat(all).extracting(RunDifference::aspect).containsExactly(Aspect.INPUT_ROW_COUNT,
                Aspect.LATE_WATERMARK, Aspect.BATCH_TIMESTAMP, Aspect.DROPPED_LATE);
        assertThat(all.get(0).message()).isEqualTo("""
                batch 0 (data batch): input row count differs
                  simulator: 2 rows [ana,x, bob,y]
                  spark:     1 row [ana,x]""");
        assertThat(all.get(2).message()).isEqualTo("""
                batch 0 (data batch): batch timestamp differs
                  (ignoreBatchTimestamps(true) skips them when a side runs on a wall clock)
                  simulator: 1970-01-01T00:00:00Z
                  spark:     1970-01-01T00:00:09Z""");
        assertThat(all.get(3).message()).isEqualTo("""
                batch 0 (data batch): dropped late rows differ (compared as multisets)
                  simulator: []
                  spark:     [ana,x]
                  only in simulator: []
                  only in spark:     [ana,x]""");
        assertThat(COMPARE.ignoreBatchTimestamps(true).differences(run(sim), run(spark)))
                .extracting(RunDifference::aspect).doesNotContain(Aspect.BATCH_TIMESTAMP);

        BatchResult<String, String, String> shifted = new BatchResult<>(1, false, List.of(), List.of(), s(0), s(0), s(0),
                List.of(), List.of());
        assertThat(COMPARE.firstDifference(run(sim), run(shifted)).orElseThrow().message()).isEqualTo("""
                batch 0: batch id differs (position 0 in both runs)
                  simulator: 0
                  spark:     1""");
        assertThat(COMPARE.differences(run(sim), run(shifted))).extracting(RunDifference::aspect)
                .startsWith(Aspect.BATCH_ID, Aspect.HAD_INPUT);
    }

    @Test
    void assert_same_throws_the_first_difference_and_counts_the_rest() {
        RunResult<String, String, String> spark = run(data(0, List.of("bob:1", "ana:1", "ana:3")));
        assertThatThrownBy(() -> COMPARE.assertSame(reference(), spark))
                .isExactlyInstanceOf(AssertionError.class)
                .hasMessage("""
                        batch 0 (data batch), key ana: outputs differ at row 2
                          simulator: [bob:1, ana:1, >>ana:2<<]
                          spark:     [bob:1, ana:1, >>ana:3<<]
                        (1 more difference; differences(...) lists them all)""");
    }

    @Test
    void side_names_and_no_output_key() {
        RunComparison<Object> plain = RunComparison.between("expected", "actual");
        RunResult<String, String, String> other = run(data(0, List.of("bob:1", "ana:1", "ana:3")),
                reference().batches().get(1));
        assertThat(plain.firstDifference(reference(), other).orElseThrow().message()).isEqualTo("""
                batch 0 (data batch): outputs differ at row 2
                  expected: [bob:1, ana:1, >>ana:2<<]
                  actual:   [bob:1, ana:1, >>ana:3<<]""");
        assertThatThrownBy(() -> RunComparison.between("spark", "spark"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("both sides are called \"spark\"; give them different names");
    }

    @Test
    void compares_real_simulator_runs() {
        TwsQuery<String, String, String> query = TwsQuery.builder(PingProcessor::new)
                .keyBy(row -> row.substring(0, row.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .build();
        Scenario<String> story = Scenario.<String>builder()
                .batch(List.of("bob,1", "ana,1", "ana,2"))
                .tick(s(10))
                .build();
        RunResult<String, String, String> first = new TwsSimulator<>(query).run(story);
        RunResult<String, String, String> again = new TwsSimulator<>(query).run(story);
        assertThat(first.batches()).hasSize(2);
        COMPARE.assertSame(first, again);

        Scenario<String> early = Scenario.<String>builder()
                .batch(List.of("bob,1", "ana,1", "ana,2"))
                .tick(s(3))
                .build();
        RunResult<String, String, String> tooEarly = new TwsSimulator<>(query).run(early);
        RunComparison<String> compare = COMPARE.ignoreBatchTimestamps(true);
        assertThat(compare.firstDifference(first, tooEarly).orElseThrow().message()).isEqualTo("""
                batch 1 (no-data batch), key ana: outputs differ at row 0; simulator has 2, spark 0
                  simulator: [>>ana:ping<<, bob:ping]
                  spark:     [>>(none)<<]""");
        assertThat(compare.ordered(false).firstDifference(first, tooEarly).orElseThrow().message()).isEqualTo("""
                batch 1 (no-data batch), keys ana, bob: outputs differ (compared as multisets)
                  simulator: [ana:ping, bob:ping]
                  spark:     []
                  only in simulator: [ana:ping, bob:ping]
                  only in spark:     []""");
        assertThat(compare.differences(first, tooEarly)).extracting(RunDifference::aspect)
                .containsExactly(Aspect.OUTPUTS, Aspect.FIRED_TIMERS, Aspect.METRICS);
        assertThat(compare.differences(first, tooEarly).get(2).message()).isEqualTo("""
                batch 1 (no-data batch): metric numDeletedTimers differs
                  simulator: 2
                  spark:     0""");
    }

    /** Counts rows per key, emitting "key:count"; the first row sets a processing-time timer 5 s on, which emits "key:ping". */
    public static class PingProcessor extends StatefulProcessor<String, String, String> {
        private transient ValueState<Long> count;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            count = getHandle().getValueState("count", Encoders.LONG(), TTLConfig.NONE());
        }

        @Override
        public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<String> rows,
                TimerValues timerValues) {
            List<String> out = new ArrayList<>();
            while (rows.hasNext()) {
                rows.next();
                Long c = count.get();
                if (c == null) {
                    getHandle().registerTimer(timerValues.getCurrentProcessingTimeInMs() + 5000);
                }
                count.update(c == null ? 1 : c + 1);
                out.add(key + ":" + count.get());
            }
            return CollectionConverters.asScala(out.iterator());
        }

        @Override
        public scala.collection.Iterator<String> handleExpiredTimer(String key, TimerValues timerValues,
                ExpiredTimerInfo expiredTimerInfo) {
            return CollectionConverters.asScala(List.of(key + ":ping").iterator());
        }
    }
}
