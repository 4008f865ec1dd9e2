package dev.twstester.sim;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.twstester.BatchResult;

/**
 * One task's custom metrics, incremented where Spark's {@code TWSMetricsUtils} increments them
 * (the handle, the state variables, the timer loop); a batch reports the sum over its tasks.
 */
final class Metrics {
    /** Counters outside a batch (the test API's state writes): never reported. */
    static final Metrics DISCARD = new Metrics();

    private final Map<String, Long> counts = new HashMap<>();

    void add(String name, long n) {
        if (this != DISCARD) {
            counts.merge(name, n, Long::sum);
        }
    }

    /** Spark's {@code TWSMetricsUtils.resetMetric}: {@code ListState.put} sets the task's counter back to 0. */
    void reset(String name) {
        if (this != DISCARD) {
            counts.put(name, 0L);
        }
    }

    /** The batch's figures: every name of {@link BatchResult#METRIC_NAMES}, summed over the tasks. */
    static Map<String, Long> sum(List<Metrics> tasks) {
        Map<String, Long> total = new TreeMap<>();
        for (String name : BatchResult.METRIC_NAMES) {
            total.put(name, 0L);
        }
        for (Metrics task : tasks) {
            task.counts.forEach((name, n) -> total.merge(name, n, Long::sum));
        }
        return total;
    }
}
