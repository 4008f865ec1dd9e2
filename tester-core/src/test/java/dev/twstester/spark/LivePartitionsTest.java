package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.twstester.BatchResult;
import dev.twstester.FiredTimer;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.TwsSimulator;
import dev.twstester.RunComparison;

import scala.jdk.javaapi.CollectionConverters;

/**
 * {@link TwsQuery#shufflePartitions()} on live Spark 4.2.0 (docs/semantics.md 1.1, 1.2, 8): a key's
 * partition is {@code pmod(hash(key), n)}; a batch's output is partition 0's rows, then partition
 * 1's, and so on; inside a partition, input outputs in key order come before timer outputs in
 * expiry order. Every partition task runs {@code init}, so the state-variable metrics count n.
 */
@Tag("live")
class LivePartitionsTest {
    private static final List<String> KEYS = List.of("ana", "bo", "cy", "dee", "ed", "flo", "gus", "hal", "ivy", "jo",
            "kim", "lu");

    /** Rows "key,reg:N" register N; outputs "in:key" and "timer:key:expiry". */
    public static class TimerPerKey extends StatefulProcessor<String, String, String> {
        private transient ValueState<Long> seen;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            seen = getHandle().getValueState("seen", Encoders.LONG(), TTLConfig.NONE());
        }

        @Override
        public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<String> rows,
                TimerValues timerValues) {
            while (rows.hasNext()) {
                String row = rows.next();
                getHandle().registerTimer(Long.parseLong(row.substring(row.indexOf(":") + 1)));
            }
            seen.update(timerValues.getCurrentProcessingTimeInMs());
            return CollectionConverters.asScala(List.of("in:" + key).iterator());
        }

        @Override
        public scala.collection.Iterator<String> handleExpiredTimer(String key, TimerValues timerValues,
                ExpiredTimerInfo info) {
            return CollectionConverters.asScala(List.of("timer:" + key + ":" + info.getExpiryTimeInMs()).iterator());
        }
    }

    /** Each key's shuffle partition as Spark SQL computes it: {@code pmod(hash(key), n)}. */
    private static Map<String, Integer> partitions(int n) {
        Map<String, Integer> partition = new TreeMap<>();
        List<Row> rows = LiveSpark.session().createDataset(KEYS, Encoders.STRING())
                .selectExpr("value", "pmod(hash(value), " + n + ")").collectAsList();
        for (Row r : rows) {
            partition.put(r.getString(0), r.getInt(1));
        }
        return partition;
    }

    /** Expiry per key, descending in key order so that expiry order is not key order. */
    private static long expiry(String key) {
        return 2999 - KEYS.indexOf(key);
    }

    @ParameterizedTest(name = "query partitions {0}, runner override {1}")
    @CsvSource({"2, 0", "5, 0", "1, 5"})
    void outputs_come_partition_by_partition(int queryPartitions, int runnerOverride) {
        int n = runnerOverride > 0 ? runnerOverride : queryPartitions;
        TwsQuery<String, String, String> query = TwsQuery.builder(TimerPerKey::new)
                .keyBy(s -> s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .shufflePartitions(queryPartitions)
                .build();
        List<String> rows = new ArrayList<>();
        for (String key : KEYS) {
            rows.add(key + ",reg:" + expiry(key));
        }
        Scenario<String> scenario = Scenario.<String>builder()
                .batchAt(Instant.ofEpochMilli(1000), rows)
                .tick(Instant.ofEpochMilli(3000))
                .build();
        LiveRunner<String, String, String> runner = LiveRunner.of(query);
        if (runnerOverride > 0) {
            runner.shufflePartitions(runnerOverride);
        }

        RunResult<String, String, String> live = runner.run(scenario);
        RunComparison.simulatorVsSpark().assertSame(new TwsSimulator<>(query.withShufflePartitions(n)).run(scenario), live);

        Map<String, Integer> partition = partitions(n);
        assertThat(partition.values()).as("every partition has keys").containsAll(range(n));
        Comparator<String> byPartition = Comparator.comparing(partition::get);
        List<String> inputOrder = KEYS.stream().sorted(byPartition.thenComparing(Comparator.naturalOrder())).toList();
        List<String> timerOrder = KEYS.stream().sorted(byPartition.thenComparing(LivePartitionsTest::expiry)).toList();
        assertThat(inputOrder).as("partitioning reorders the keys").isNotEqualTo(KEYS);
        assertThat(live.batches()).hasSize(2);
        assertThat(live.batches().get(0).outputs()).containsExactlyElementsOf(
                inputOrder.stream().map(k -> "in:" + k).toList());
        assertThat(live.batches().get(1).outputs()).containsExactlyElementsOf(
                timerOrder.stream().map(k -> "timer:" + k + ":" + expiry(k)).toList());
        assertThat(live.batches().get(1).firedTimers()).containsExactlyElementsOf(
                timerOrder.stream().map(k -> new FiredTimer<>(k, Instant.ofEpochMilli(expiry(k)))).toList());
        // one init per partition task and batch, summed over the tasks
        assertThat(live.batches()).extracting(b -> b.metric("numValueStateVars")).containsOnly((long) n);
        assertThat(live.batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L);
    }

    private static List<Integer> range(int n) {
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            all.add(i);
        }
        return all;
    }
}
