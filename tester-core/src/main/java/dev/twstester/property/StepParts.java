package dev.twstester.property;

import java.time.Instant;
import java.util.List;

import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.Scenario.Step;

/**
 * What the property engine reads of one scenario step, found through the one step dispatch,
 * {@link Step#applyTo}: its kind, its rows (an input's or an add's; none for the others) and its
 * processing time (an input's {@code at}, possibly null, or a tick's {@code to}; null for the
 * others). The engine's code switches over {@link Kind} with switch expressions, so a new kind of
 * step fails to compile wherever it is not handled.
 *
 * <pre>{@code
 * StepParts<GenEvent> parts = StepParts.of(step);
 * long events = parts.rows().size();
 * Step<GenEvent> emptied = parts.withRows(List.of());   // an input or add without events
 * }</pre>
 *
 * @param kind the step's kind
 * @param rows the step's rows, in order (empty for ticks, stops and starts)
 * @param time the step's processing time, or null
 * @param <I>  row type
 */
record StepParts<I>(Kind kind, List<I> rows, Instant time) {
    /** The kinds of {@link Scenario} steps. */
    enum Kind { INPUT, ADD, TICK, STOP, START }

    /** The parts of {@code step}. */
    static <I> StepParts<I> of(Step<I> step) {
        return step.applyTo(new Scenario.StepTarget<I, StepParts<I>>() {
            @Override
            public StepParts<I> batch(List<I> rows, Instant at) {
                return new StepParts<>(Kind.INPUT, rows, at);
            }

            @Override
            public StepParts<I> addData(List<I> rows) {
                return new StepParts<>(Kind.ADD, rows, null);
            }

            @Override
            public StepParts<I> tick(Instant to) {
                return new StepParts<>(Kind.TICK, List.of(), to);
            }

            @Override
            public StepParts<I> stop() {
                return new StepParts<>(Kind.STOP, List.of(), null);
            }

            @Override
            public StepParts<I> start() {
                return new StepParts<>(Kind.START, List.of(), null);
            }

            @Override
            public StepParts<I> deploy(String version, TwsQuery<?, I, ?> query) {
                throw new IllegalArgumentException("deploy " + version + ": the property engine generates, shrinks and"
                        + " describes scenarios of one query version; a deploy step is not one of its steps");
            }
        });
    }

    /** The rows of {@code step}: an input's or an add's, else none. */
    static <I> List<I> rowsOf(Step<I> step) {
        return of(step).rows();
    }

    /** The processing time of {@code step}: an input's {@code at} (null for the current time) or a tick's {@code to}; else null. */
    static Instant timeOf(Step<?> step) {
        return of(step).time();
    }

    /** Whether {@code step} is of {@code kind}. */
    static boolean is(Step<?> step, Kind kind) {
        return of(step).kind() == kind;
    }

    /** This step with {@code newRows} (of another row type, possibly); a step without rows stays as it is. */
    <R> Step<R> withRows(List<R> newRows) {
        return switch (kind) {
            case INPUT -> new Scenario.Input<>(newRows, time);
            case ADD -> new Scenario.AddData<>(newRows);
            case TICK -> new Scenario.Tick<>(time);
            case STOP -> new Scenario.Stop<>();
            case START -> new Scenario.Start<>();
        };
    }

    /** This step at processing time {@code newTime}: an input or a tick; other steps stay as they are. */
    Step<I> atTime(Instant newTime) {
        return switch (kind) {
            case INPUT -> new Scenario.Input<>(rows, newTime);
            case TICK -> new Scenario.Tick<>(newTime);
            case ADD, STOP, START -> withRows(rows);
        };
    }
}
