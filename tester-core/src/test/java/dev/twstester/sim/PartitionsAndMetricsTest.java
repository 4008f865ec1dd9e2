package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.TwsQuery;

/**
 * Shuffle partitions (docs/semantics.md 1.1, 1.2, 8) and the operator's custom metrics (section 11;
 * Spark's TWSMetricsUtils calls).
 */
class PartitionsAndMetricsTest {

    @BeforeEach
    void clearLog() {
        Log.drain();
    }

    private static TwsQuery<String, String, String> experiment(int partitions) {
        return TwsQuery.builder(ExperimentProcessor::new)
                .keyBy(s -> s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .shufflePartitions(partitions)
                .build();
    }

    @Test
    void spec_15_6_keys_go_to_partitions_by_spark_murmur3_hash_as_in_run_proc3() {
        // a live Spark 4.2.0 run with 3 partitions: p0 = y, zz; p1 = aa, late; p2 = a, b, ccc, chain1, dd, x
        KeyCodec<String> strings = KeyCodec.of(Encoders.STRING());
        Map<String, Integer> expected = Map.of("y", 0, "zz", 0, "aa", 1, "late", 1, "a", 2, "b", 2, "ccc", 2,
                "chain1", 2, "dd", 2, "x", 2);
        expected.forEach((key, p) -> assertThat(strings.partition(strings.encode(key), 3)).as(key).isEqualTo(p));
    }

    @Test
    void spec_7_outputs_come_partition_by_partition_inputs_then_timers_and_every_task_inits_and_closes() {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(experiment(3));
        sim.runBatchAt(Instant.ofEpochMilli(1000), List.of("aa,reg:4000", "y,reg:500", "late,reg:500", "zz,reg:1000",
                "a,reg:5000", "x,reg:1"));
        BatchResult<String, String, String> batch = sim.history().batches().get(0);
        assertThat(batch.outputs()).containsExactly(
                "in:y:reg:500", "in:zz:reg:1000", "timer:y:500", "timer:zz:1000",   // partition 0
                "in:aa:reg:4000", "in:late:reg:500", "timer:late:500",              // partition 1
                "in:a:reg:5000", "in:x:reg:1", "timer:x:1");                        // partition 2
        List<String> lifecycle = new ArrayList<>();
        for (String line : Log.drain()) {
            if (line.startsWith("init") || line.startsWith("close")) {
                lifecycle.add(line.substring(0, line.indexOf(' ') > 0 ? line.indexOf(' ') : line.length()));
            }
        }
        // driver pass twice (init, close) x 2, then one init/close per partition task
        assertThat(lifecycle).containsExactly("init", "close", "init", "close", "init", "close", "init", "close",
                "init", "close");
    }

    @Test
    void an_empty_partition_still_runs_its_task() {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(experiment(5));
        Log.drain();
        sim.runBatchAt(Instant.ofEpochMilli(1000), List.of("a,x"));
        long inits = Log.drain().stream().filter(l -> l.startsWith("init")).count();
        assertThat(inits).isEqualTo(5);
    }

    @Test
    void metrics_count_what_spark_counts_per_task() {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(experiment(1));
        BatchResult<String, String, String> first = sim.runBatchAt(Instant.ofEpochMilli(1000),
                List.of("a,reg:5000", "a,lst:x;y", "b,smap:k=1;j=2", "b,reg:5000", "b,del:5000", "b,del:7")).lastBatch();
        assertThat(first.metrics()).containsAllEntriesOf(Map.of(
                "numValueStateVars", 1L, "numListStateVars", 1L, "numMapStateVars", 2L,
                "numValueStateWithTTLVars", 1L, "numListStateWithTTLVars", 1L, "numMapStateWithTTLVars", 1L,
                "numRegisteredTimers", 2L, "numDeletedTimers", 2L, "numExpiredTimers", 0L,
                // 6 count updates + 2 list appends + 2 map updates
                "numUpdatedStateRows", 10L));
        assertThat(first.metric("numRemovedStateRows")).isZero();

        BatchResult<String, String, String> timer = sim.setProcessingTime(Instant.ofEpochMilli(6000)).lastBatch();
        assertThat(timer.metric("numExpiredTimers")).isEqualTo(1);
        assertThat(timer.metric("numDeletedTimers")).isEqualTo(1);
        assertThat(timer.metric("numRegisteredTimers")).isZero();
        assertThat(timer.metric("numValueStateVars")).isEqualTo(1);
    }

    @Test
    void ttl_values_count_as_removed_twice_and_state_vars_count_once_per_task() {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(experiment(2));
        BatchResult<String, String, String> set = sim.runBatchAt(Instant.ofEpochMilli(1000), List.of("y,ttlset:v1"))
                .lastBatch();
        assertThat(set.metric("numValueStateVars")).isEqualTo(2);   // one per partition task
        assertThat(set.metric("numUpdatedStateRows")).isEqualTo(4); // tv1, tl1, tm1 and count
        BatchResult<String, String, String> expiry = sim.setProcessingTime(Instant.ofEpochMilli(4000)).lastBatch();
        assertThat(expiry.metric("numValuesRemovedDueToTTLExpiry")).isEqualTo(3);
        assertThat(expiry.metric("numRemovedStateRows")).isEqualTo(3);
    }

    @Test
    void a_ttl_value_rewritten_unchanged_in_the_same_batch_is_not_counted_again() {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(experiment(1));
        BatchResult<String, String, String> batch = sim.runBatchAt(Instant.ofEpochMilli(1000),
                List.of("y,ttlset:v1", "y,ttlset:v1")).lastBatch();
        // first row: tv1, tl1, tm1 (3) + count; second row: tl1 append only (tv1, tm1 unchanged) + count
        assertThat(batch.metric("numUpdatedStateRows")).isEqualTo(6);
    }

    @Test
    void a_batch_reports_every_metric_in_name_order_and_equal_figures_share_one_map() {
        assertThat(java.util.Arrays.stream(Metric.values()).map(Metric::sparkName).toList())
                .isEqualTo(BatchResult.METRIC_NAMES);
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(experiment(2));
        BatchResult<String, String, String> first = sim.runBatchAt(Instant.ofEpochMilli(1000), List.of("a,reg:5000"))
                .lastBatch();
        assertThat(new java.util.ArrayList<>(first.metrics().keySet()))
                .isEqualTo(new java.util.TreeSet<>(BatchResult.METRIC_NAMES).stream().toList());
        assertThat(first.metrics()).isEqualTo(new java.util.TreeMap<>(first.metrics()))
                .containsEntry("numRegisteredTimers", 1L).containsEntry("numValueStateVars", 2L);
        BatchResult<String, String, String> second = sim.runBatchAt(Instant.ofEpochMilli(2000), List.of("b,reg:5000"))
                .lastBatch();
        assertThat(second.metrics()).isSameAs(first.metrics());
        BatchResult<String, String, String> third = sim.runBatchAt(Instant.ofEpochMilli(3000), List.of("c,reg:5000",
                "c,reg:6000")).lastBatch();
        assertThat(third.metrics()).isNotSameAs(first.metrics()).containsEntry("numRegisteredTimers", 2L);
    }
}
