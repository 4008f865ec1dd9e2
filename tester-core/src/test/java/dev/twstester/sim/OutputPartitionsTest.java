package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.time.Instant;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;

import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The simulator says which shuffle partition emitted each output row. The partitions of the keys
 * are those of a live Spark 4.2.0 run with 3 partitions (p0 = y, zz; p1 = aa, late;
 * p2 = a, x), and with one partition every row is partition 0's.
 */
class OutputPartitionsTest {

    private static TwsQuery<String, String, String> experiment(int partitions) {
        return TwsQuery.builder(ExperimentProcessor::new)
                .keyBy(s -> s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .shufflePartitions(partitions)
                .build();
    }

    private static final List<String> ROWS = List.of("aa,reg:4000", "y,reg:500", "late,reg:500", "zz,reg:1000",
            "a,reg:5000", "x,reg:1");

    @Test
    void each_row_has_the_partition_whose_task_emitted_it_inputs_then_timers_per_partition() {
        BatchResult<String, String, String> batch = new TwsSimulator<>(experiment(3))
                .runBatchAt(Instant.ofEpochMilli(1000), ROWS).batches().get(0);

        assertThat(batch.outputs()).containsExactly(
                "in:y:reg:500", "in:zz:reg:1000", "timer:y:500", "timer:zz:1000",
                "in:aa:reg:4000", "in:late:reg:500", "timer:late:500",
                "in:a:reg:5000", "in:x:reg:1", "timer:x:1");
        assertThat(batch.knowsOutputPartitions()).isTrue();
        assertThat(batch.outputPartitions()).containsExactly(0, 0, 0, 0, 1, 1, 1, 2, 2, 2);
        assertThat(batch.outputsOfPartition(1)).containsExactly("in:aa:reg:4000", "in:late:reg:500", "timer:late:500");
        assertThat(batch.outputsOfPartition(3)).isEmpty();
        assertThat(batch.outputsByPartition()).containsExactly(
                entry(0, List.of("in:y:reg:500", "in:zz:reg:1000", "timer:y:500", "timer:zz:1000")),
                entry(1, List.of("in:aa:reg:4000", "in:late:reg:500", "timer:late:500")),
                entry(2, List.of("in:a:reg:5000", "in:x:reg:1", "timer:x:1")));
    }

    @Test
    void a_partition_that_emits_nothing_has_no_rows_and_the_next_keeps_its_number() {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(experiment(3));
        // y is partition 0's, x partition 2's: partition 1's task runs and emits nothing
        RunResult<String, String, String> run = sim.runBatchAt(Instant.ofEpochMilli(1000), List.of("x,a", "y,b", "x,c"));
        BatchResult<String, String, String> batch = run.batches().get(0);
        assertThat(batch.outputs()).containsExactly("in:y:b", "in:x:a", "in:x:c");
        assertThat(batch.outputPartitions()).containsExactly(0, 2, 2);
        assertThat(batch.outputsOfPartition(1)).isEmpty();
        assertThat(batch.outputsByPartition()).containsOnlyKeys(0, 2);

        // a later batch where only timers of partition 2 emit
        assertThat(sim.runBatchAt(Instant.ofEpochMilli(2000), List.of("x,reg:2500")).lastBatch().outputPartitions())
                .containsExactly(2);
        BatchResult<String, String, String> timers = sim.setProcessingTime(Instant.ofEpochMilli(3000)).lastBatch();
        assertThat(timers.hadInput()).isFalse();
        assertThat(timers.outputs()).containsExactly("timer:x:2500");
        assertThat(timers.outputPartitions()).containsExactly(2);
    }

    @Test
    void one_partition_puts_every_row_in_partition_0_and_a_batch_without_outputs_knows_them_trivially() {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(experiment(1));
        BatchResult<String, String, String> batch = sim.runBatchAt(Instant.ofEpochMilli(1000), ROWS).batches().get(0);
        assertThat(batch.outputs()).hasSize(10);
        assertThat(batch.outputPartitions()).hasSize(10).containsOnly(0);
        assertThat(batch.outputsOfPartition(0)).isEqualTo(batch.outputs());

        BatchResult<String, String, String> quiet = sim.setProcessingTime(Instant.ofEpochMilli(1500)).lastBatch();
        assertThat(quiet.outputs()).isEmpty();
        assertThat(quiet.outputPartitions()).isEmpty();
        assertThat(quiet.knowsOutputPartitions()).isTrue();
        assertThat(quiet.outputsByPartition()).isEmpty();
    }

    @Test
    void a_retried_batch_and_fast_fidelity_give_the_same_partitions() {
        List<Integer> expected = List.of(0, 0, 0, 0, 1, 1, 1, 2, 2, 2);
        BatchResult<String, String, String> retried = TwsSimulator.builder(experiment(3)).checkRetries().build()
                .runBatchAt(Instant.ofEpochMilli(1000), ROWS).batches().get(0);
        assertThat(retried.outputPartitions()).isEqualTo(expected);
        BatchResult<String, String, String> fast = new TwsSimulator<>(experiment(3), Fidelity.FAST)
                .runBatchAt(Instant.ofEpochMilli(1000), ROWS).batches().get(0);
        assertThat(fast.outputPartitions()).isEqualTo(expected);
        assertThat(fast).isEqualTo(retried);
    }

    @Test
    void the_batch_result_javadoc_example() {
        TwsQuery<String, String, Tuple2<String, Long>> counts = TwsQuery.builder(CountWords::new)
                .keyBy(word -> word, Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.tuple(Encoders.STRING(), Encoders.LONG()))
                .shufflePartitions(2)
                .build();
        BatchResult<String, String, Tuple2<String, Long>> b = new TwsSimulator<>(counts).runBatch("bo", "dee", "ana")
                .lastBatch();
        assertThat(b.outputs()).hasToString("[(ana,1), (dee,1), (bo,1)]");
        assertThat(b.outputPartitions()).hasToString("[0, 0, 1]");
        assertThat(b.outputsOfPartition(1)).hasToString("[(bo,1)]");
        assertThat(b.outputsByPartition()).hasToString("{0=[(ana,1), (dee,1)], 1=[(bo,1)]}");
    }

    /** (word, rows of the word in the batch). */
    public static class CountWords extends StatefulProcessor<String, String, Tuple2<String, Long>> {
        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
        }

        @Override
        public scala.collection.Iterator<Tuple2<String, Long>> handleInputRows(String key,
                scala.collection.Iterator<String> rows, TimerValues timerValues) {
            return CollectionConverters.asScala(List.of(new Tuple2<>(key, (long) rows.size())).iterator());
        }
    }
}
