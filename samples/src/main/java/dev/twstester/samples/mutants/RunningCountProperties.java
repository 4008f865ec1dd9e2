package dev.twstester.samples.mutants;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.property.ScenarioGenerator;
import dev.twstester.samples.counts.RunningCount;
import dev.twstester.sim.TwsSimulator;

import scala.Tuple2;

/**
 * The property a user writes for {@link RunningCount}: after each batch, every key that had rows
 * gets one output, the number of its rows so far.
 *
 * <pre>{@code
 * RunningCountProperties.invariants().check(RunningCount.query(), scenario);   // empty: it holds
 * }</pre>
 */
public final class RunningCountProperties {
    private RunningCountProperties() {}

    /** Four keys, up to six batches of up to five rows, restarts now and then, three trigger intervals. */
    static ScenarioGenerator generator() {
        return ScenarioGenerator.create().keys("a", "b", "c", "aa").timeMode(TimeMode.None())
                .batches(1, 6).eventsPerBatch(0, 5).restartChance(0.1)
                .triggerIntervals(Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(5));
    }

    /** Each batch's outputs are the running counts of the keys it had rows of. */
    public static UserProperty<String, String, Tuple2<String, Long>> invariants() {
        return Invariants.property("running_count invariants", RunningCount.query(), generator(), (key, ms, v) -> key,
                List.of(RunningCountProperties::countsRows));
    }

    private static Optional<String> countsRows(RunResult<String, String, Tuple2<String, Long>> run,
            TwsSimulator<String, String, Tuple2<String, Long>> sim) {
        Map<String, Long> seen = new HashMap<>();
        for (BatchResult<String, String, Tuple2<String, Long>> batch : run.batches()) {
            Map<String, Long> expected = new HashMap<>();
            batch.input().forEach(key -> expected.put(key, seen.merge(key, 1L, Long::sum)));
            Map<String, Long> emitted = new HashMap<>();
            batch.outputs().forEach(t -> emitted.merge(t._1(), t._2(), (a, b) -> -1L));
            if (!emitted.equals(expected)) {
                return Optional.of("batch " + batch.batchId() + " emits " + batch.outputs() + ", expected the running counts "
                        + expected);
            }
        }
        return Optional.empty();
    }
}
