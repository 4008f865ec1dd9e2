package dev.twstester.sim;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import dev.twstester.BatchResult;

/**
 * One task's custom metrics, incremented where Spark's {@code TWSMetricsUtils} increments them
 * (the handle, the state variables, the timer loop); a batch reports the sum over its tasks.
 */
final class Metrics {
    /** Counters outside a batch (the test API's state writes): never reported. */
    static final Metrics DISCARD = new Metrics();

    /** The counters by {@link Metric} ordinal, made by the first count that is not 0: null while all are 0. */
    private long[] counts;

    void add(Metric metric, long n) {
        if (this != DISCARD && n != 0) {
            if (counts == null) {
                counts = new long[Metric.ALL.length];
            }
            counts[metric.ordinal()] += n;
        }
    }

    /** Every counter back to 0, for the counters' next task. */
    void clear() {
        if (counts != null) {
            Arrays.fill(counts, 0);
        }
    }

    /** Spark's {@code TWSMetricsUtils.resetMetric}: {@code ListState.put} sets the task's counter back to 0. */
    void reset(Metric metric) {
        if (this != DISCARD && counts != null) {
            counts[metric.ordinal()] = 0;
        }
    }

    /**
     * The last figures a simulator reported: batches with the same figures share one immutable map.
     * Its own array sums each batch's figures, so a batch like the last allocates nothing.
     */
    static final class Last {
        private final long[] total = new long[Metric.ALL.length];
        private long[] values;
        private Map<String, Long> map;
    }

    /** The batch's figures: every name of {@link BatchResult#METRIC_NAMES}, summed over the tasks, in name order. */
    static Map<String, Long> sum(List<Metrics> tasks, Last last) {
        long[] total = last.total;
        Arrays.fill(total, 0);
        for (int t = 0; t < tasks.size(); t++) {
            long[] task = tasks.get(t).counts;
            for (int i = 0; task != null && i < total.length; i++) {
                total[i] += task[i];
            }
        }
        if (last.map != null && Arrays.equals(total, last.values)) {
            return last.map;
        }
        long[] byName = new long[total.length];
        for (int i = 0; i < byName.length; i++) {
            byName[i] = total[Metric.SORTED_ORDINALS[i]];
        }
        last.values = total.clone();
        last.map = Metric.ZEROS.withCounts(byName);
        return last.map;
    }
}
