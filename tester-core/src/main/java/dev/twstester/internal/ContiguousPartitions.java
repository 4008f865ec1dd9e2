package dev.twstester.internal;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * Internal, not API: may change in any release.
 *
 * <p>The shuffle partition of each output row of a batch whose rows come partition by partition,
 * as Spark collects them: {@code counts[0]} rows of partition 0, then {@code counts[1]} rows of
 * partition 1, and so on. An immutable {@code List<Integer>} of one element per row that stores
 * one number per partition, so recording partitions costs nothing per row.
 *
 * <p>Public for {@code dev.twstester} ({@code BatchResult} reads it), {@code dev.twstester.sim}
 * ({@code Engine}) and {@code dev.twstester.spark} ({@code LiveRun}), which record output partitions.
 */
public final class ContiguousPartitions extends AbstractList<Integer> implements RandomAccess {
    /** {@code ends[p]}: the number of rows of partitions 0..p. */
    private final int[] ends;

    /** {@code ONE_PARTITION[n]}: n rows, all in partition 0 (index 0 unused). */
    private static final ContiguousPartitions[] ONE_PARTITION = new ContiguousPartitions[65];

    static {
        for (int n = 1; n < ONE_PARTITION.length; n++) {
            ONE_PARTITION[n] = new ContiguousPartitions(new int[] {n});
        }
    }

    private ContiguousPartitions(int[] ends) {
        this.ends = ends;
    }

    /**
     * The partitions of rows that are {@code counts.get(p)} rows of each partition {@code p} in
     * ascending order; an empty list when there are no rows.
     */
    public static List<Integer> ofCounts(List<Integer> counts) {
        return ofCounts(counts.stream().mapToInt(Integer::intValue).toArray());
    }

    /** {@link #ofCounts(List)} from an array of counts, which it does not keep. */
    public static List<Integer> ofCounts(int[] counts) {
        if (counts.length == 1 && counts[0] > 0 && counts[0] < ONE_PARTITION.length) {
            return ONE_PARTITION[counts[0]]; // the common case, shared: the list is immutable
        }
        int[] ends = new int[counts.length];
        long total = 0;
        for (int p = 0; p < ends.length; p++) {
            int count = counts[p];
            if (count < 0) {
                throw new IllegalArgumentException("partition " + p + " has a negative row count " + count);
            }
            total += count;
            if (total > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("more than " + Integer.MAX_VALUE + " rows: " + Arrays.toString(counts));
            }
            ends[p] = (int) total;
        }
        return total == 0 ? List.of() : new ContiguousPartitions(ends);
    }

    @Override
    public Integer get(int index) {
        if (index < 0 || index >= size()) {
            throw new IndexOutOfBoundsException("row " + index + " of " + size());
        }
        // the first partition whose end is past the row
        int at = Arrays.binarySearch(ends, index + 1);
        if (at < 0) {
            return -at - 1;
        }
        while (at > 0 && ends[at - 1] == index + 1) {
            at--; // empty partitions share an end with the one before them
        }
        return at;
    }

    @Override
    public int size() {
        return ends[ends.length - 1];
    }
}
