package dev.twstester;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A sequence of what happens to a streaming query, replayable on the simulator and on live Spark:
 * rows reaching the source, the processing-time clock moving, the query stopping and starting
 * again from its checkpoint. Which micro-batches run, and when, follows from these steps and the
 * query's trigger, as in Spark. Immutable.
 *
 * <pre>{@code
 * Scenario<CartEvent> story = Scenario.<CartEvent>builder()
 *         .batch(file1Events)                               // the next trigger runs these rows
 *         .batchAt(Instant.parse("1970-01-01T00:00:05Z"), file2Events)
 *         .addData(lateEvents)                              // wait for the next trigger
 *         .tick(Instant.parse("1970-01-01T00:01:00Z"))      // the trigger there runs what is due
 *         .restart()                                        // stop, then start from the checkpoint
 *         .deploy("CartWatch#fixed", CartWatch.fixed())     // a new version on the same checkpoint
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

    /** One step of a scenario; {@link #applyTo} hands it to whatever runs it. */
    public sealed interface Step<I> permits Input, AddData, Tick, Stop, Start, Deploy {
        /** Calls the {@code target} method that does this step, and returns what it returns. */
        <R> R applyTo(StepTarget<I, R> target);
    }

    /**
     * What runs the steps of a scenario: the simulator, the live runner, a plan writer. Each step
     * calls one method ({@link Step#applyTo}), so a new kind of step shows everywhere steps are run.
     *
     * <pre>{@code
     * int rows = 0;
     * for (Scenario.Step<CartEvent> step : story.steps()) {
     *     rows += step.applyTo(new Scenario.StepTarget<CartEvent, Integer>() {
     *         public Integer batch(List<CartEvent> r, Instant at) { return r.size(); }
     *         public Integer addData(List<CartEvent> r) { return r.size(); }
     *         public Integer tick(Instant to) { return 0; }
     *         public Integer stop() { return 0; }
     *         public Integer start() { return 0; }
     *         public Integer deploy(String version, TwsQuery<?, CartEvent, ?> query) { return 0; }
     *     });
     * }
     * }</pre>
     *
     * @param <I> input row type
     * @param <R> what a step returns
     */
    public interface StepTarget<I, R> {
        /** {@link Input}: a micro-batch of {@code rows} at the trigger at {@code at}, or the next trigger when null. */
        R batch(List<I> rows, Instant at);

        /** {@link AddData}: rows reach the source. */
        R addData(List<I> rows);

        /** {@link Tick}: the clock moves to {@code to}. */
        R tick(Instant to);

        /** {@link Stop}: the query stops. */
        R stop();

        /** {@link Start}: the query starts again from its checkpoint. */
        R start();

        /**
         * {@link Deploy}: the query stops and {@code query}, the new version {@code version} names,
         * starts on its checkpoint ({@code query} is null in a plan step that holds no query).
         */
        R deploy(String version, TwsQuery<?, I, ?> query);
    }

    /**
     * A micro-batch of {@code rows}: they arrive while the query is idle and the trigger at
     * {@code at}, or the next trigger when null, runs them ({@code TwsSimulator.runBatchAt} and
     * {@code runBatch}). With a zero trigger interval a no-data batch the batch asks for follows at
     * once.
     */
    public record Input<I>(List<I> rows, Instant at) implements Step<I> {
        public Input {
            rows = copy(rows);
        }

        @Override
        public <R> R applyTo(StepTarget<I, R> target) {
            return target.batch(rows, at);
        }
    }

    /**
     * Rows reach the source ({@code TwsSimulator.addData}): a running query with a zero trigger
     * interval reads them at once (outside ProcessingTime mode); otherwise they wait for the next
     * trigger, together with any rows added before it.
     */
    public record AddData<I>(List<I> rows) implements Step<I> {
        public AddData {
            rows = copy(rows);
        }

        @Override
        public <R> R applyTo(StepTarget<I, R> target) {
            return target.addData(rows);
        }
    }

    /**
     * The processing-time clock moves to {@code to} ({@code TwsSimulator.setProcessingTime}): a
     * trigger runs there if one comes due (a data batch when rows wait, else a pending no-data batch,
     * else nothing; in ProcessingTime mode every trigger after the first batch runs a batch).
     */
    public record Tick<I>(Instant to) implements Step<I> {
        public Tick {
            Objects.requireNonNull(to, "to must not be null");
        }

        @Override
        public <R> R applyTo(StepTarget<I, R> target) {
            return target.tick(to);
        }
    }

    /**
     * The query stops between batches: nothing runs until {@link Start}; rows added meanwhile wait,
     * and a no-data batch that was due at the next trigger is skipped.
     */
    public record Stop<I>() implements Step<I> {
        @Override
        public <R> R applyTo(StepTarget<I, R> target) {
            return target.stop();
        }
    }

    /**
     * The query starts again from its checkpoint: state, timers, watermark and batch ids carry over,
     * a fresh processor runs the driver-side {@code init}/{@code close} pass, initial state is not
     * applied again; the first trigger runs at once, a data batch if rows wait, else nothing.
     */
    public record Start<I>() implements Step<I> {
        @Override
        public <R> R applyTo(StepTarget<I, R> target) {
            return target.start();
        }
    }

    /**
     * A new version of the query is deployed on its checkpoint, as a redeploy in production: the
     * query stops (if it runs) and {@code query} starts on the same checkpoint, source and clock
     * ({@code TwsSimulator.restartWith}). Its first trigger runs the batch a failure left in the
     * offset log, if any (with the new version, at the batch's original timestamp), then the rows
     * that waited. {@code query} must have the same plan: as many stateful operators, each with the
     * same key, input and output encoders; each operator's processor may change.
     *
     * @param version what names the new version in reports and plan files ({@code deploy
     *                com.acme.Carts#fixed}); not blank, no white space
     * @param query   the new version; null only in a step of a plan file, which names the query
     *                and holds none ({@code dev.twstester.io.ScenarioPlan}): running such a step
     *                throws
     */
    public record Deploy<I>(String version, TwsQuery<?, I, ?> query) implements Step<I> {
        public Deploy {
            Objects.requireNonNull(version, "version must not be null");
            if (version.isBlank() || version.chars().anyMatch(Character::isWhitespace)) {
                throw new IllegalArgumentException("a deploy's version name \"" + version + "\" must be one word "
                        + "without white space, like com.acme.Carts#fixed");
            }
        }

        /** {@link #query()}, which a step of a plan file has not: then throws, saying what to do. */
        public TwsQuery<?, I, ?> requireQuery() {
            if (query == null) {
                throw new IllegalArgumentException("deploy " + version + " has no query: a plan file names it only;"
                        + " give the step its query (new Scenario.Deploy<>(version, query)) before running it");
            }
            return query;
        }

        @Override
        public <R> R applyTo(StepTarget<I, R> target) {
            return target.deploy(version, query);
        }
    }

    /** An unmodifiable copy of a step's rows (a row may be null: the simulator's error then names it). */
    private static <I> List<I> copy(List<I> rows) {
        return java.util.Collections.unmodifiableList(new ArrayList<>(Objects.requireNonNull(rows, "rows must not be null")));
    }

    public static <I> Builder<I> builder() {
        return new Builder<>();
    }

    /** Number of input rows over all steps. */
    public int rowCount() {
        return steps.stream().mapToInt(s -> s instanceof Input<I> in ? in.rows().size()
                : s instanceof AddData<I> add ? add.rows().size() : 0).sum();
    }

    /** Builds a scenario step by step. */
    public static final class Builder<I> {
        private final List<Step<I>> steps = new ArrayList<>();

        private Builder() {}

        /** A micro-batch of {@code rows} at the next trigger ({@link Input}). */
        public Builder<I> batch(List<I> rows) {
            steps.add(new Input<>(rows, null));
            return this;
        }

        /** A micro-batch of {@code rows} at the trigger at {@code at} ({@link Input}). */
        public Builder<I> batchAt(Instant at, List<I> rows) {
            steps.add(new Input<>(rows, Objects.requireNonNull(at, "at must not be null")));
            return this;
        }

        /** Rows reach the source and wait for the trigger that reads them ({@link AddData}). */
        public Builder<I> addData(List<I> rows) {
            steps.add(new AddData<>(rows));
            return this;
        }

        /** The clock moves to {@code to} ({@link Tick}). */
        public Builder<I> tick(Instant to) {
            steps.add(new Tick<>(to));
            return this;
        }

        /** The query stops ({@link Stop}). */
        public Builder<I> stop() {
            steps.add(new Stop<>());
            return this;
        }

        /** The query starts again from its checkpoint ({@link Start}). */
        public Builder<I> start() {
            steps.add(new Start<>());
            return this;
        }

        /** A new version {@code query}, named {@code version}, deployed on the checkpoint ({@link Deploy}). */
        public Builder<I> deploy(String version, TwsQuery<?, I, ?> query) {
            steps.add(new Deploy<>(version, Objects.requireNonNull(query, "query must not be null")));
            return this;
        }

        /** A restart from the checkpoint: {@link #stop()} then {@link #start()}. */
        public Builder<I> restart() {
            return stop().start();
        }

        public Scenario<I> build() {
            return new Scenario<>(steps);
        }
    }
}
