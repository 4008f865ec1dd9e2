package dev.twstester;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** BatchResult's output partitions: accessors, the constructors without them, and invalid lists. */
class BatchResultPartitionsTest {
    private static final Instant T = Instant.EPOCH;

    private static BatchResult<String, String, String> batch(List<String> outputs, List<Integer> partitions) {
        return new BatchResult<>(3, true, List.of(), List.of(), T, T, T, outputs, List.of(), Map.of(), partitions);
    }

    @Test
    void rows_by_partition_keep_each_partitions_order_whatever_the_interleaving() {
        BatchResult<String, String, String> b = batch(List.of("a", "b", "c", "d"), List.of(2, 0, 2, 0));
        assertThat(b.knowsOutputPartitions()).isTrue();
        assertThat(b.outputsOfPartition(2)).containsExactly("a", "c");
        assertThat(b.outputsOfPartition(0)).containsExactly("b", "d");
        assertThat(b.outputsOfPartition(1)).isEmpty();
        assertThat(b.outputsByPartition()).containsExactly(entry(0, List.of("b", "d")), entry(2, List.of("a", "c")));
        assertThatThrownBy(() -> b.outputsByPartition().put(1, List.of()))
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> b.outputsOfPartition(0).add("e")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void the_constructors_without_partitions_mean_not_known() {
        BatchResult<String, String, String> nine = new BatchResult<>(3, true, List.of(), List.of(), T, T, T,
                List.of("a"), List.of());
        BatchResult<String, String, String> ten = new BatchResult<>(3, true, List.of(), List.of(), T, T, T,
                List.of("a"), List.of(), Map.of());
        assertThat(nine.outputPartitions()).isEmpty();
        assertThat(nine).isEqualTo(ten);
        assertThat(nine.knowsOutputPartitions()).isFalse();
        assertThat(nine).isNotEqualTo(batch(List.of("a"), List.of(0)));
        assertThatThrownBy(() -> nine.outputsOfPartition(0)).isInstanceOf(IllegalStateException.class)
                .hasMessage("batch 3 does not know which shuffle partition emitted its 1 outputs: it was built without "
                        + "outputPartitions (or read from JSON without \"outputPartitions\"); the simulator and the live "
                        + "runner record them");
        assertThatThrownBy(nine::outputsByPartition).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void partitions_must_match_the_outputs_and_count_from_0() {
        assertThatThrownBy(() -> batch(List.of("a", "b"), List.of(0)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("batch 3 has 2 outputs but 1 output partitions; give one partition per output row, or none "
                        + "when they are not known");
        assertThatThrownBy(() -> batch(List.of("a", "b"), List.of(0, -1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("batch 3: output row 1 has the negative partition -1; shuffle partitions count from 0");
    }
}
