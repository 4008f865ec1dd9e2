package dev.twstester;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A sequence of what happens to a streaming query, replayable on the simulator and on live Spark:
 * input micro-batches (optionally picked up by the trigger at a given processing time), clock
 * ticks and restarts of the query from its checkpoint. Immutable.
 *
 * <pre>{@code
 * Scenario<CartEvent> story = Scenario.<CartEvent>builder()
 *         .batch(file1Events)                               // at the current processing time
 *         .batchAt(Instant.parse("1970-01-01T00:00:05Z"), file2Events)
 *         .tick(Instant.parse("1970-01-01T00:00:10Z"))      // ProcessingTime mode: a no-data batch
 *         .build();
 * RunResult<String, CartEvent, CartAlert> run = new TwsSimulator<>(query).run(story);
 * }</pre>
 *
 * @param steps the steps in order
 * @param <I>   input row type
 */
public record Scenario<I>(List<Step<I>> steps) {
    public Scenario {
        steps = List.copyOf(steps);
    }

    /** One step of a scenario. */
    public sealed interface Step<I> permits Input, Tick, Restart {}

    /**
     * Rows that arrive while the query is idle; the trigger at {@code at} (or at the current
     * processing time when null) runs one micro-batch with them, followed by any no-data batch.
     */
    public record Input<I>(List<I> rows, Instant at) implements Step<I> {
        public Input {
            rows = new ArrayList<>(Objects.requireNonNull(rows, "rows must not be null"));
        }

        @Override
        public List<I> rows() {
            return List.copyOf(rows);
        }
    }

    /** The processing-time clock moves to {@code to}: a trigger tick (a batch in ProcessingTime mode). */
    public record Tick<I>(Instant to) implements Step<I> {
        public Tick {
            Objects.requireNonNull(to, "to must not be null");
        }
    }

    /**
     * The query is stopped and started again from its checkpoint: state, timers, watermark and batch
     * ids carry over, a fresh processor runs the driver-side {@code init}/{@code close} pass, initial
     * state is not applied again, and no batch runs until the next input arrives.
     */
    public record Restart<I>() implements Step<I> {}

    public static <I> Builder<I> builder() {
        return new Builder<>();
    }

    /** Number of input rows over all steps. */
    public int rowCount() {
        return steps.stream().mapToInt(s -> s instanceof Input<I> in ? in.rows().size() : 0).sum();
    }

    /** Builds a scenario step by step. */
    public static final class Builder<I> {
        private final List<Step<I>> steps = new ArrayList<>();

        private Builder() {}

        public Builder<I> batch(List<I> rows) {
            steps.add(new Input<>(rows, null));
            return this;
        }

        public Builder<I> batchAt(Instant at, List<I> rows) {
            steps.add(new Input<>(rows, Objects.requireNonNull(at, "at must not be null")));
            return this;
        }

        public Builder<I> tick(Instant to) {
            steps.add(new Tick<>(to));
            return this;
        }

        /** Stops the query and starts it again from its checkpoint ({@link Restart}). */
        public Builder<I> restart() {
            steps.add(new Restart<>());
            return this;
        }

        public Scenario<I> build() {
            return new Scenario<>(steps);
        }
    }
}
