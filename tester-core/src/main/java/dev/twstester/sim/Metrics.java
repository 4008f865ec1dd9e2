package dev.twstester.sim;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import dev.twstester.BatchResult;

/**
 * One task's custom metrics, incremented where Spark's {@code TWSMetricsUtils} increments them
 * (the handle, the state variables, the timer loop); a batch reports the sum over its tasks.
 */
final class Metrics {
    /** Each metric's counter index; unmodifiable, so every thread's tasks share it. */
    private static final Map<String, Integer> INDEX = index();

    private static Map<String, Integer> index() {
        Map<String, Integer> index = new HashMap<>();
        for (String name : BatchResult.METRIC_NAMES) {
            index.put(name, index.size());
        }
        return Map.copyOf(index);
    }

    /** Counters outside a batch (the test API's state writes): never reported. */
    static final Metrics DISCARD = new Metrics();

    private final long[] counts = new long[INDEX.size()];

    void add(String name, long n) {
        if (this != DISCARD) {
            counts[index(name)] += n;
        }
    }

    /** Spark's {@code TWSMetricsUtils.resetMetric}: {@code ListState.put} sets the task's counter back to 0. */
    void reset(String name) {
        if (this != DISCARD) {
            counts[index(name)] = 0;
        }
    }

    private static int index(String name) {
        Integer i = INDEX.get(name);
        if (i == null) {
            throw new IllegalArgumentException("not a metric of BatchResult.METRIC_NAMES: " + name);
        }
        return i;
    }

    /** The last figures a simulator reported: batches with the same figures share one immutable map. */
    static final class Last {
        private long[] values;
        private Map<String, Long> map;
    }

    /** The batch's figures: every name of {@link BatchResult#METRIC_NAMES}, summed over the tasks. */
    static Map<String, Long> sum(List<Metrics> tasks, Last last) {
        long[] total = new long[INDEX.size()];
        for (Metrics task : tasks) {
            for (int i = 0; i < total.length; i++) {
                total[i] += task.counts[i];
            }
        }
        if (last.map != null && java.util.Arrays.equals(total, last.values)) {
            return last.map;
        }
        last.values = total;
        last.map = named(total);
        return last.map;
    }

    private static Map<String, Long> named(long[] total) {
        TreeMap<String, Long> named = new TreeMap<>(ZEROS); // linear: copied from a sorted map
        int k = 0;
        for (Map.Entry<String, Long> e : named.entrySet()) {
            e.setValue(total[SORTED_INDEX[k++]]);
        }
        return Collections.unmodifiableSortedMap(named);
    }

    /**
     * Every metric at 0, in name order (unmodifiable), and each name's counter index in that order
     * (never written after class initialization, so shared by every thread).
     */
    private static final SortedMap<String, Long> ZEROS = zeros();
    private static final int[] SORTED_INDEX = ZEROS.keySet().stream().mapToInt(INDEX::get).toArray();

    private static SortedMap<String, Long> zeros() {
        TreeMap<String, Long> zeros = new TreeMap<>();
        INDEX.keySet().forEach(name -> zeros.put(name, 0L));
        return Collections.unmodifiableSortedMap(zeros);
    }
}
