package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.spark.TaskContext;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.twstester.BatchResult;
import dev.twstester.RunComparison;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.TwsSimulator;

/**
 * Each output row's shuffle partition on live Spark 4.2.0, and the simulator's agreeing through
 * {@link RunComparison}: the live runner cuts the sink's rows (partition 0's, then partition 1's,
 * ...) by the number of rows each partition's task emitted, and this test checks every row's
 * partition against the {@code TaskContext} of the task that emitted it and against
 * {@code pmod(hash(key), n)}. Several keys per partition, two rows for some keys, lazy output
 * iterators, timers that emit, and batches where some partitions emit nothing.
 */
@Tag("live")
class LiveOutputPartitionsTest {
    private static final List<String> KEYS = List.of("ana", "bo", "cy", "dee", "ed", "flo", "gus", "hal", "ivy", "jo",
            "kim", "lu", "max", "ned", "oz", "pam");

    /** The partition of the live task that emitted each row, recorded as Spark pulls the row. */
    static final Map<String, Integer> TASK_PARTITION = new ConcurrentHashMap<>();

    /**
     * Rows "key,reg:E" register a processing-time timer at E and emit "in:key:reg:E"; other rows
     * "key,x" emit "in:key:x". A timer emits "timer:key:E". Rows are built as Spark pulls them.
     */
    public static class EmitPerRow extends StatefulProcessor<String, String, String> {
        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
        }

        @Override
        public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<String> rows,
                TimerValues timerValues) {
            List<String> commands = new ArrayList<>();
            while (rows.hasNext()) {
                String command = rows.next();
                command = command.substring(command.indexOf(',') + 1);
                if (command.startsWith("reg:")) {
                    getHandle().registerTimer(Long.parseLong(command.substring(4)));
                }
                commands.add(command);
            }
            return lazily(commands.stream().map(c -> "in:" + key + ":" + c).toList());
        }

        @Override
        public scala.collection.Iterator<String> handleExpiredTimer(String key, TimerValues timerValues,
                ExpiredTimerInfo info) {
            return lazily(List.of("timer:" + key + ":" + info.getExpiryTimeInMs()));
        }

        private static scala.collection.Iterator<String> lazily(List<String> rows) {
            return new scala.collection.AbstractIterator<String>() {
                private int next;

                @Override
                public boolean hasNext() {
                    return next < rows.size();
                }

                @Override
                public String next() {
                    String row = rows.get(next++);
                    TaskContext task = TaskContext.get();
                    if (task != null) {
                        TASK_PARTITION.put(row, task.partitionId());
                    }
                    return row;
                }
            };
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

    /** First timers: descending in key order, so that firing order is not key order. */
    private static long firstExpiry(String key) {
        return 2900 - 10L * KEYS.indexOf(key);
    }

    private static long secondExpiry(String key) {
        return 5900 - 10L * KEYS.indexOf(key);
    }

    @ParameterizedTest(name = "{0} shuffle partitions")
    @ValueSource(ints = {2, 5})
    void every_output_row_has_the_partition_of_the_task_that_emitted_it(int n) {
        Map<String, Integer> partition = partitions(n);
        for (int p = 0; p < n; p++) {
            int q = p;
            assertThat(KEYS.stream().filter(k -> partition.get(k) == q).count()).as("keys of partition %d", p)
                    .isGreaterThanOrEqualTo(2);
        }
        List<String> partition0 = KEYS.stream().filter(k -> partition.get(k) == 0).toList();
        String last = KEYS.stream().filter(k -> partition.get(k) == n - 1).findFirst().orElseThrow();
        List<String> first = new ArrayList<>();
        for (String key : KEYS) {
            first.add(key + ",reg:" + firstExpiry(key));
            if (KEYS.indexOf(key) % 3 == 0) {
                first.add(key + ",twice");
            }
        }
        TwsQuery<String, String, String> query = TwsQuery.builder(EmitPerRow::new)
                .keyBy(s -> s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .shufflePartitions(n)
                .build();
        Scenario<String> scenario = Scenario.<String>builder()
                .batchAt(Instant.ofEpochMilli(1000), first)                        // every key, in key order
                .batchAt(Instant.ofEpochMilli(3000), partition0.stream()            // partition 0's keys, then
                        .map(k -> k + ",reg:" + secondExpiry(k)).toList())         // every first timer fires
                .tick(Instant.ofEpochMilli(6000))                                  // only partition 0's timers
                .batchAt(Instant.ofEpochMilli(7000), List.of(last + ",x"))         // only the last partition
                .build();
        TASK_PARTITION.clear();

        RunResult<String, String, String> live = LiveRunner.of(query).run(scenario);
        RunResult<String, String, String> sim = new TwsSimulator<>(query).run(scenario);
        RunComparison.simulatorVsSpark().assertSame(sim, live);

        Comparator<String> byKey = Comparator.naturalOrder();
        List<SortedMap<Integer, List<String>>> expected = List.of(new TreeMap<>(), new TreeMap<>(), new TreeMap<>(),
                new TreeMap<>());
        for (String key : KEYS.stream().sorted(byKey).toList()) {
            for (String row : first) {
                if (row.startsWith(key + ",")) {
                    add(expected.get(0), partition.get(key), "in:" + row.replace(",", ":"));
                }
            }
        }
        for (String key : partition0.stream().sorted(byKey).toList()) {
            add(expected.get(1), 0, "in:" + key + ":reg:" + secondExpiry(key));
        }
        for (String key : KEYS.stream().sorted(Comparator.comparing(LiveOutputPartitionsTest::firstExpiry)).toList()) {
            add(expected.get(1), partition.get(key), "timer:" + key + ":" + firstExpiry(key));
        }
        for (String key : partition0.stream().sorted(Comparator.comparing(LiveOutputPartitionsTest::secondExpiry))
                .toList()) {
            add(expected.get(2), 0, "timer:" + key + ":" + secondExpiry(key));
        }
        add(expected.get(3), n - 1, "in:" + last + ":x");

        assertThat(live.batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L, 2L, 3L);
        for (int b = 0; b < 4; b++) {
            BatchResult<String, String, String> batch = live.batches().get(b);
            assertThat(batch.outputsByPartition()).as("batch %d by partition", b).isEqualTo(expected.get(b));
            // Spark's collect order: the partitions' rows one partition after another
            assertThat(batch.outputs()).as("batch %d", b)
                    .isEqualTo(expected.get(b).values().stream().flatMap(List::stream).toList());
            assertThat(batch.outputPartitions()).as("batch %d", b).isSorted();
            for (int i = 0; i < batch.outputs().size(); i++) {
                assertThat(batch.outputPartitions().get(i)).as("batch %d row %s", b, batch.outputs().get(i))
                        .isEqualTo(TASK_PARTITION.get(batch.outputs().get(i)));
            }
            assertThat(batch.outputPartitions()).isEqualTo(sim.batches().get(b).outputPartitions());
        }
        assertThat(live.batches().get(2).outputsByPartition()).as("only partition 0 emits").containsOnlyKeys(0);
        assertThat(live.batches().get(3).outputsByPartition()).as("only the last partition emits")
                .containsOnlyKeys(n - 1);
        assertThat(TASK_PARTITION).as("the simulator runs no Spark task").hasSize(live.outputs().size());
    }

    private static void add(SortedMap<Integer, List<String>> byPartition, int partition, String row) {
        byPartition.computeIfAbsent(partition, p -> new ArrayList<>()).add(row);
    }
}
