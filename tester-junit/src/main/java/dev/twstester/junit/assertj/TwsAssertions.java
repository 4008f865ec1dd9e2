package dev.twstester.junit.assertj;

import org.assertj.core.api.Assertions;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.sim.TwsSimulator;

/**
 * The entry point of twstester's AssertJ assertions. It extends AssertJ's {@link Assertions}, so one
 * static import gives every {@code assertThat}:
 *
 * <pre>{@code
 * import static dev.twstester.junit.assertj.TwsAssertions.assertThat;
 *
 * assertThat(sim).listState("items", "ana").containsExactly("boots", "socks");
 * assertThat(sim).timers("ana").containsExactly(at("10:35"));
 * assertThat(sim.runBatch(events)).hasBatchIds(4, 5).outputs().isEmpty();
 * assertThat(run.lastBatch()).isNoDataBatch().hasEvictionWatermark(at("10:40"));
 * assertThat(List.of(1, 2)).hasSize(2);                              // AssertJ's own
 * }</pre>
 *
 * {@link TwsSoftAssertions} collects failures instead of stopping at the first.
 *
 * <h2>Rows compared by value</h2>
 * The simulator's rows are copies made through the query's encoders, as Spark's are. Rows of a
 * class without its own {@code equals()} (a plain bean) are therefore compared as Spark compares
 * rows, by their encoded value: the outputs, input and late rows of {@code outputs()},
 * {@code input()} and {@code droppedLate()}, and state values of {@code valueState} and
 * {@code listState} (a bean's fields through {@code Encoders.bean}). A failure then says so, and
 * shows such rows by their fields: {@code DoorEvent{"door":"front","open":false,...}}. Rows of
 * classes with {@code equals()} are compared with it.
 */
public class TwsAssertions extends Assertions {
    protected TwsAssertions() {}

    /** Assertions on a simulator's state, clocks, outputs and batches ({@code TestSimulator}s included). */
    public static <K, I, O> SimulatorAssert<K, I, O> assertThat(TwsSimulator<K, I, O> actual) {
        return new SimulatorAssert<>(actual);
    }

    /** Assertions on the batches a call or run executed. */
    public static <K, I, O> RunResultAssert<K, I, O> assertThat(RunResult<K, I, O> actual) {
        return new RunResultAssert<>(actual);
    }

    /** Assertions on one micro-batch. */
    public static <K, I, O> BatchResultAssert<K, I, O> assertThat(BatchResult<K, I, O> actual) {
        return new BatchResultAssert<>(actual);
    }
}
