package dev.twstester.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

/** NamedCounts: the same map as a TreeMap of its entries, read-only. */
class NamedCountsTest {
    private static final String[] NAMES = {"numDeletedTimers", "numRegisteredTimers", "numUpdatedStateRows"};

    @Test
    void is_equal_to_a_tree_map_of_its_entries_in_every_way_a_map_is_read() {
        Map<String, Long> counts = NamedCounts.of(NAMES, new long[] {0, 3, 7});
        TreeMap<String, Long> tree = new TreeMap<>(Map.of("numDeletedTimers", 0L, "numRegisteredTimers", 3L,
                "numUpdatedStateRows", 7L));
        assertThat(counts).isEqualTo(tree);
        assertThat(tree).isEqualTo(counts);
        assertThat(counts.hashCode()).isEqualTo(tree.hashCode());
        assertThat(counts.toString()).isEqualTo(tree.toString())
                .isEqualTo("{numDeletedTimers=0, numRegisteredTimers=3, numUpdatedStateRows=7}");
        assertThat(new ArrayList<>(counts.keySet())).containsExactly(NAMES);
        assertThat(new ArrayList<>(counts.values())).containsExactly(0L, 3L, 7L);
        assertThat(counts.get("numRegisteredTimers")).isEqualTo(3L);
        assertThat(counts.get("numExpiredTimers")).isNull();
        assertThat(counts.get(42)).isNull();
        assertThat(counts.getOrDefault("numExpiredTimers", -1L)).isEqualTo(-1L);
        assertThat(counts.containsKey("numDeletedTimers")).isTrue();
        assertThat(counts.containsKey("nope")).isFalse();
        assertThat(counts.containsValue(7L)).isTrue();
        assertThat(counts).hasSize(3).isNotEqualTo(Map.of("numDeletedTimers", 0L));
        assertThat(NamedCounts.of(new String[0], new long[0])).isEmpty();
    }

    @Test
    void cannot_be_changed() {
        Map<String, Long> counts = NamedCounts.of(NAMES, new long[] {1, 2, 3});
        assertThatThrownBy(() -> counts.put("numDeletedTimers", 5L)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> counts.remove("numDeletedTimers")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(counts::clear).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> counts.entrySet().iterator().next().setValue(9L))
                .isInstanceOf(UnsupportedOperationException.class);
        Iterator<String> keys = counts.keySet().iterator();
        keys.next();
        assertThatThrownBy(keys::remove).isInstanceOf(UnsupportedOperationException.class);
        assertThat(counts).isEqualTo(Map.of("numDeletedTimers", 1L, "numRegisteredTimers", 2L, "numUpdatedStateRows", 3L));
        Iterator<Map.Entry<String, Long>> entries = counts.entrySet().iterator();
        for (int i = 0; i < 3; i++) {
            entries.next();
        }
        assertThatThrownBy(entries::next).isInstanceOf(NoSuchElementException.class);
    }

    @Test
    void with_counts_keeps_the_names_and_takes_new_counts() {
        NamedCounts zeros = NamedCounts.of(NAMES, new long[3]);
        Map<String, Long> next = zeros.withCounts(new long[] {4, 5, 6});
        assertThat(next).isEqualTo(Map.of("numDeletedTimers", 4L, "numRegisteredTimers", 5L, "numUpdatedStateRows", 6L));
        assertThat(zeros).containsEntry("numDeletedTimers", 0L);
        assertThatThrownBy(() -> zeros.withCounts(new long[2])).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("3 names but 2 counts");
    }

    @Test
    void names_must_be_ascending_distinct_and_one_per_count() {
        assertThatThrownBy(() -> NamedCounts.of(new String[] {"b", "a"}, new long[] {1, 2}))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("names must be ascending and distinct: [b, a]");
        assertThatThrownBy(() -> NamedCounts.of(new String[] {"a", "a"}, new long[] {1, 2}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ascending and distinct");
        assertThatThrownBy(() -> NamedCounts.of(new String[] {"a"}, new long[] {1, 2}))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("1 names but 2 counts");
        assertThat(List.of(NAMES)).isSorted();
    }
}
