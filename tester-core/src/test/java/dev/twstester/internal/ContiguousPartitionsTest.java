package dev.twstester.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/** ContiguousPartitions: the same list as writing each row's partition out, for any counts (empty partitions too). */
class ContiguousPartitionsTest {

    @Test
    void equals_the_rows_partitions_written_out_for_generated_counts() {
        long seed = Long.getLong("twstester.seed", System.nanoTime());
        SplittableRandom random = new SplittableRandom(seed);
        for (int run = 0; run < 2000; run++) {
            int partitions = 1 + random.nextInt(12);
            List<Integer> counts = new ArrayList<>();
            List<Integer> expected = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                int count = random.nextInt(4) == 0 ? 0 : random.nextInt(5);
                counts.add(count);
                for (int i = 0; i < count; i++) {
                    expected.add(p);
                }
            }
            List<Integer> actual = ContiguousPartitions.ofCounts(counts);
            assertThat(actual).as("seed %d (rerun with -Dtwstester.seed=%d), counts %s", seed, seed, counts)
                    .isEqualTo(expected);
            assertThat(actual.hashCode()).as("seed %d, counts %s", seed, counts).isEqualTo(expected.hashCode());
        }
    }

    @Test
    void examples_and_errors() {
        assertThat(ContiguousPartitions.ofCounts(List.of(0, 2, 0, 0, 1, 0))).containsExactly(1, 1, 4);
        assertThat(ContiguousPartitions.ofCounts(List.of(0, 0))).isEmpty();
        assertThat(ContiguousPartitions.ofCounts(List.of())).isEmpty();
        List<Integer> list = ContiguousPartitions.ofCounts(List.of(1, 1));
        assertThatThrownBy(() -> list.get(2)).isInstanceOf(IndexOutOfBoundsException.class).hasMessage("row 2 of 2");
        assertThatThrownBy(() -> list.set(0, 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ContiguousPartitions.ofCounts(List.of(1, -1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("partition 1 has a negative row count -1");
    }
}
