package dev.twstester;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.twstester.RunDifference.Aspect;

/**
 * RunComparison of batches that know their outputs' partitions: each partition's rows in order,
 * the first differing partition and row named; the interleaving of partitions is not compared.
 */
class RunComparisonPartitionsTest {
    private static final RunComparison<String> COMPARE = RunComparison.simulatorVsSpark()
            .<String>outputKey(row -> row.substring(0, row.indexOf(':')));
    private static final Instant T = Instant.EPOCH;

    private static RunResult<String, String, String> run(List<String> outputs, List<Integer> partitions) {
        return new RunResult<>(List.of(
                new BatchResult<>(0, true, List.of("x"), List.of(), T, T, T, List.of(), List.of(), Map.of(), List.of()),
                new BatchResult<>(1, true, List.of("x"), List.of(), T, T, T, outputs, List.of(), Map.of(), partitions)));
    }

    /** Partition 0: ana, cy; partition 1: bo, dee, ed. */
    private static final List<String> ROWS = List.of("ana:1", "cy:1", "bo:1", "dee:1", "ed:1");
    private static final List<Integer> PARTITIONS = List.of(0, 0, 1, 1, 1);

    @Test
    void the_same_rows_in_the_same_partitions_are_the_same() {
        assertThat(COMPARE.differences(run(ROWS, PARTITIONS), run(ROWS, PARTITIONS))).isEmpty();
    }

    @Test
    void a_reordered_row_within_a_partition_names_the_batch_partition_and_row() {
        RunResult<String, String, String> spark = run(List.of("ana:1", "cy:1", "bo:1", "ed:1", "dee:1"), PARTITIONS);
        RunDifference d = COMPARE.firstDifference(run(ROWS, PARTITIONS), spark).orElseThrow();
        assertThat(d.batchId()).isEqualTo(1);
        assertThat(d.aspect()).isEqualTo(Aspect.OUTPUTS);
        assertThat(d.key()).isEqualTo("dee");
        assertThat(d.left()).isEqualTo(List.of("bo:1", "dee:1", "ed:1"));
        assertThat(d.right()).isEqualTo(List.of("bo:1", "ed:1", "dee:1"));
        assertThat(d.message()).isEqualTo("""
                batch 1 (data batch), key dee: outputs of partition 1 differ at row 1
                  simulator: [bo:1, >>dee:1<<, ed:1]
                  spark:     [bo:1, >>ed:1<<, dee:1]
                  the same rows in another order; ordered(false) compares them as multisets""");
        assertThat(COMPARE.ordered(false).firstDifference(run(ROWS, PARTITIONS), spark)).isEmpty();
    }

    @Test
    void another_interleaving_of_the_same_partitions_rows_is_not_a_difference() {
        // a sink that saw the tasks' rows as they came (not collect order): the partitions hold the same rows
        RunResult<String, String, String> interleaved = run(List.of("bo:1", "ana:1", "dee:1", "cy:1", "ed:1"),
                List.of(1, 0, 1, 0, 1));
        assertThat(COMPARE.differences(run(ROWS, PARTITIONS), interleaved)).isEmpty();
        // without partitions the whole lists are compared, and they differ
        RunResult<String, String, String> unknown = run(List.of("bo:1", "ana:1", "dee:1", "cy:1", "ed:1"), List.of());
        assertThat(COMPARE.firstDifference(run(ROWS, PARTITIONS), unknown).orElseThrow().message()).isEqualTo("""
                batch 1 (data batch), key ana: outputs differ at row 0
                  simulator: [>>ana:1<<, cy:1, bo:1, dee:1, ed:1]
                  spark:     [>>bo:1<<, ana:1, dee:1, cy:1, ed:1]
                  the same rows in another order; ordered(false) compares them as multisets""");
    }

    @Test
    void a_row_in_another_partition_says_where_the_other_side_has_it() {
        // spark put cy in partition 1
        RunResult<String, String, String> spark = run(List.of("ana:1", "bo:1", "cy:1", "dee:1", "ed:1"),
                List.of(0, 1, 1, 1, 1));
        RunDifference d = COMPARE.firstDifference(run(ROWS, PARTITIONS), spark).orElseThrow();
        assertThat(d.message()).isEqualTo("""
                batch 1 (data batch), key cy: outputs of partition 0 differ at row 1; simulator has 2, spark 1
                  simulator: [ana:1, >>cy:1<<]
                  spark:     [ana:1, >>(none)<<]
                  cy:1 is in spark's partition 1""");
        assertThat(COMPARE.differences(run(ROWS, PARTITIONS), spark)).hasSize(1);
        // the other way round, the row spark has and the simulator has elsewhere
        assertThat(COMPARE.firstDifference(spark, run(ROWS, PARTITIONS)).orElseThrow().message()).isEqualTo("""
                batch 1 (data batch), key cy: outputs of partition 0 differ at row 1; simulator has 1, spark 2
                  simulator: [ana:1, >>(none)<<]
                  spark:     [ana:1, >>cy:1<<]
                  cy:1 is in simulator's partition 1""");
    }

    @Test
    void a_changed_row_and_an_extra_partition() {
        RunResult<String, String, String> spark = run(List.of("ana:1", "cy:1", "bo:1", "dee:2", "ed:1"), PARTITIONS);
        assertThat(COMPARE.firstDifference(run(ROWS, PARTITIONS), spark).orElseThrow().message()).isEqualTo("""
                batch 1 (data batch), key dee: outputs of partition 1 differ at row 1
                  simulator: [bo:1, >>dee:1<<, ed:1]
                  spark:     [bo:1, >>dee:2<<, ed:1]""");
        RunResult<String, String, String> extra = run(List.of("ana:1", "cy:1", "bo:1", "dee:1", "ed:1", "fay:1"),
                List.of(0, 0, 1, 1, 1, 4));
        assertThat(COMPARE.firstDifference(run(ROWS, PARTITIONS), extra).orElseThrow().message()).isEqualTo("""
                batch 1 (data batch), key fay: outputs of partition 4 differ at row 0; simulator has 0, spark 1
                  simulator: [>>(none)<<]
                  spark:     [>>fay:1<<]""");
    }

    @Test
    void rows_all_in_partition_0_and_a_side_without_partitions_compare_the_whole_lists() {
        List<String> rows = List.of("ana:1", "bo:1");
        RunResult<String, String, String> spark = run(List.of("bo:1", "ana:1"), List.of(0, 0));
        String whole = """
                batch 1 (data batch), key ana: outputs differ at row 0
                  simulator: [>>ana:1<<, bo:1]
                  spark:     [>>bo:1<<, ana:1]
                  the same rows in another order; ordered(false) compares them as multisets""";
        assertThat(COMPARE.firstDifference(run(rows, List.of(0, 0)), spark).orElseThrow().message()).isEqualTo(whole);
        assertThat(COMPARE.firstDifference(run(rows, List.of()), spark).orElseThrow().message()).isEqualTo(whole);
        assertThat(COMPARE.ordered(false).differences(run(rows, List.of(0, 1)), spark)).isEmpty();
    }
}
