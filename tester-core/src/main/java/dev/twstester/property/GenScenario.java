package dev.twstester.property;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;

import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.Scenario;
import dev.twstester.TwsQuery;

/**
 * A generated, shrinkable scenario: input steps of {@link GenEvent}s, processing-time ticks and
 * restarts from the checkpoint, independent of the user's row type until
 * {@link #toScenario(EventFactory)} turns it into a {@link Scenario} the simulator or live Spark
 * replays, optionally with a shuffle partition count for the query ({@link #applyTo}). Immutable;
 * {@link ScenarioGenerator} makes them, {@link Shrinker} reduces them, {@link #describe()} prints
 * them as a step list.
 *
 * <pre>{@code
 * GenScenario gen = GenScenario.of(TimeMode.EventTime(), List.of(
 *                 new GenScenario.Input(List.of(new GenEvent("a", t0 + 30_000, 0)), null),
 *                 new GenScenario.Input(List.of(new GenEvent("a", t0 + 20_000, 0)), null)))
 *         .withEventTimeBase(Instant.ofEpochMilli(t0))
 *         .withWatermarkDelay(Duration.ofSeconds(10));
 * gen.isDroppedLate(1, gen.inputEvents(1).get(0));      // true: 20s <= 30s - 10s
 * RunResult<String, CartEvent, CartAlert> run = new TwsSimulator<>(query).run(gen.toScenario(carts));
 * System.out.println(gen.describe());
 * }</pre>
 *
 * <h2>Validity</h2>
 * Processing time never moves backwards: an input's {@code atMs} and a tick's {@code toMs} are at
 * or after the time of the step before (the clock starts at the epoch). In ProcessingTime mode,
 * as live Spark needs, every input has an {@code atMs} and every step time is strictly later than
 * the one before. A {@link Restart} has no time and does not move the clock. The factory and the
 * {@code with*} methods throw {@link IllegalArgumentException} for a scenario that breaks these rules.
 *
 * <h2>The watermark model</h2>
 * {@link #lateWatermarkMs(int)} is the watermark a step's rows are compared with:
 * {@code max(0, max event time of all earlier input steps - delay)}, late rows included. It
 * matches the simulator's replay of {@link #toScenario} in EventTime mode with Append or Update
 * output (the no-data batch after a watermark advance runs before the next input, so a restart
 * resumes from it). With Complete output Spark runs no such batch and the late-row watermark lags
 * one input step behind.
 */
public final class GenScenario {
    private final TimeMode timeMode;
    private final Instant eventTimeBase;
    private final Duration watermarkDelay;
    private final List<String> variantNames;
    private final List<Step> steps;
    private final Integer shufflePartitions;

    /** One step of a generated scenario. */
    public sealed interface Step permits Input, Tick, Restart {}

    /**
     * Events that arrive while the query is idle; one micro-batch runs with them at processing
     * time {@code atMs}, or at the current processing time when {@code atMs} is null.
     *
     * @param events the events in arrival order (possibly none: an empty batch)
     * @param atMs   the trigger's processing time in epoch ms, or null for "now"
     */
    public record Input(List<GenEvent> events, Long atMs) implements Step {
        public Input {
            events = List.copyOf(Objects.requireNonNull(events, "events must not be null"));
        }
    }

    /**
     * The processing-time clock moves to {@code toMs}: a trigger tick, which runs a no-data batch
     * in ProcessingTime mode once a batch has run and nothing in the other modes.
     *
     * @param toMs the new processing time in epoch ms
     */
    public record Tick(long toMs) implements Step {}

    /**
     * The query stops and starts again from its checkpoint ({@link Scenario.Restart}): state,
     * timers, watermark, processing time and batch ids carry over, a fresh processor runs the
     * driver-side init pass, and no batch runs until the next input.
     */
    public record Restart() implements Step {}

    private GenScenario(TimeMode timeMode, Instant eventTimeBase, Duration watermarkDelay, List<String> variantNames,
            List<Step> steps, Integer shufflePartitions) {
        this.timeMode = Objects.requireNonNull(timeMode, "timeMode must not be null");
        this.eventTimeBase = Objects.requireNonNull(eventTimeBase, "eventTimeBase must not be null");
        this.watermarkDelay = watermarkDelay;
        this.variantNames = List.copyOf(variantNames);
        this.steps = List.copyOf(Objects.requireNonNull(steps, "steps must not be null"));
        this.shufflePartitions = shufflePartitions;
        String problem = problem(timeMode, this.steps);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
    }

    /**
     * A scenario for a query in {@code timeMode} with the given steps, event-time base the epoch,
     * no watermark, variants named by number and no shuffle partition count of its own.
     */
    public static GenScenario of(TimeMode timeMode, List<? extends Step> steps) {
        return new GenScenario(timeMode, Instant.EPOCH, null, List.of(), new ArrayList<>(steps), null);
    }

    /** This scenario with other steps (same mode, base, delay, variant names and partitions). */
    public GenScenario withSteps(List<? extends Step> newSteps) {
        return new GenScenario(timeMode, eventTimeBase, watermarkDelay, variantNames, new ArrayList<>(newSteps),
                shufflePartitions);
    }

    /** This scenario with the instant event-time offsets in {@link #describe()} count from. */
    public GenScenario withEventTimeBase(Instant base) {
        return new GenScenario(timeMode, base, watermarkDelay, variantNames, steps, shufflePartitions);
    }

    /** This scenario with the query's watermark delay ({@code withWatermark}); null for no watermark. */
    public GenScenario withWatermarkDelay(Duration delay) {
        if (delay != null && delay.isNegative()) {
            throw new IllegalArgumentException("watermark delay must not be negative: " + delay);
        }
        return new GenScenario(timeMode, eventTimeBase, delay, variantNames, steps, shufflePartitions);
    }

    /** This scenario with names for the variants in {@link #describe()} (index = variant). */
    public GenScenario withVariantNames(List<String> names) {
        return new GenScenario(timeMode, eventTimeBase, watermarkDelay, Objects.requireNonNull(names, "names must not be null"),
                steps, shufflePartitions);
    }

    /**
     * This scenario run by a query with {@code spark.sql.shuffle.partitions} = {@code partitions}
     * ({@link #applyTo}); shown in {@link #describe()} so a failing case replays with the same count.
     */
    public GenScenario withShufflePartitions(int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("withShufflePartitions(" + partitions + "): need at least 1 partition");
        }
        return new GenScenario(timeMode, eventTimeBase, watermarkDelay, variantNames, steps, partitions);
    }

    /** Why {@code steps} is not a valid scenario in {@code mode}, or null when it is. */
    static String problem(TimeMode mode, List<Step> steps) {
        boolean strict = Times.isProcessingTime(mode);
        long now = 0;
        for (int i = 0; i < steps.size(); i++) {
            Step step = Objects.requireNonNull(steps.get(i), "steps must not contain null");
            if (step instanceof Restart) {
                continue;
            }
            Long t = step instanceof Input in ? in.atMs() : Long.valueOf(((Tick) step).toMs());
            if (t == null) {
                if (strict) {
                    return "step " + (i + 1) + ": in ProcessingTime mode every input needs a processing time (atMs): "
                            + "live Spark runs a batch only on a clock tick";
                }
                continue;
            }
            if (strict && t <= now) {
                return "step " + (i + 1) + ": processing time " + Times.instant(t) + " is not after " + Times.instant(now)
                        + "; in ProcessingTime mode each step needs a strictly later time (one clock tick per step)";
            }
            if (t < now) {
                return "step " + (i + 1) + ": processing time " + Times.instant(t) + " is before " + Times.instant(now)
                        + "; processing time never moves backwards";
            }
            now = t;
        }
        return null;
    }

    public TimeMode timeMode() {
        return timeMode;
    }

    /** The instant event-time offsets count from (the generator's event-time base). */
    public Instant eventTimeBase() {
        return eventTimeBase;
    }

    /** The watermark delay of the query, if it has a watermark. */
    public Optional<Duration> watermarkDelay() {
        return Optional.ofNullable(watermarkDelay);
    }

    /** Names of the variants (index = variant); empty when variants are shown by number. */
    public List<String> variantNames() {
        return variantNames;
    }

    public List<Step> steps() {
        return steps;
    }

    /**
     * The shuffle partition count this scenario's query runs with ({@link #withShufflePartitions});
     * empty when the query's own count applies.
     */
    public OptionalInt shufflePartitions() {
        return shufflePartitions == null ? OptionalInt.empty() : OptionalInt.of(shufflePartitions);
    }

    /**
     * The query to run this scenario with: {@code query} with {@link #shufflePartitions()} when
     * the scenario has a count, else {@code query} itself. Use it for every engine compared.
     *
     * <pre>{@code
     * TwsQuery<String, CartEvent, CartAlert> q = gen.applyTo(CartWatch.query());
     * RunComparison.simulatorVsSpark().firstDifference(new TwsSimulator<>(q).run(gen.toScenario(carts)),
     *         LiveRunner.of(q).run(gen.toScenario(carts)));
     * }</pre>
     */
    public <K, I, O> TwsQuery<K, I, O> applyTo(TwsQuery<K, I, O> query) {
        Objects.requireNonNull(query, "query must not be null");
        return shufflePartitions == null ? query : query.withShufflePartitions(shufflePartitions);
    }

    /** Number of restart steps. */
    public int restartCount() {
        return (int) steps.stream().filter(s -> s instanceof Restart).count();
    }

    /** Number of events over all input steps. */
    public int eventCount() {
        return steps.stream().mapToInt(s -> s instanceof Input in ? in.events().size() : 0).sum();
    }

    /** The events of input step {@code stepIndex} (0-based); empty for a tick or a restart. */
    public List<GenEvent> inputEvents(int stepIndex) {
        return steps.get(stepIndex) instanceof Input in ? in.events() : List.of();
    }

    /** The processing time (epoch ms) at step {@code stepIndex} (0-based), after the step moved the clock. */
    public long processingTimeMs(int stepIndex) {
        Objects.checkIndex(stepIndex, steps.size());
        long now = 0;
        for (int i = 0; i <= stepIndex; i++) {
            Step s = steps.get(i);
            if (s instanceof Input in) {
                now = in.atMs() == null ? now : in.atMs();
            } else if (s instanceof Tick tick) {
                now = tick.toMs();
            }
        }
        return now;
    }

    /**
     * The watermark (epoch ms) step {@code stepIndex}'s rows are compared with: {@code max(0, max
     * event time of all earlier inputs - delay)}; 0 without a watermark. See the class Javadoc.
     */
    public long lateWatermarkMs(int stepIndex) {
        Objects.checkIndex(stepIndex, steps.size());
        if (watermarkDelay == null) {
            return 0;
        }
        long max = Long.MIN_VALUE;
        for (int i = 0; i < stepIndex; i++) {
            for (GenEvent e : inputEvents(i)) {
                max = Math.max(max, e.eventTimeMs());
            }
        }
        return max == Long.MIN_VALUE ? 0 : Math.max(0, max - watermarkDelay.toMillis());
    }

    /**
     * True when the late-row filter drops {@code event} of step {@code stepIndex}: EventTime mode
     * with a watermark and {@code eventTime <= lateWatermarkMs(stepIndex)} (equality is late).
     */
    public boolean isDroppedLate(int stepIndex, GenEvent event) {
        return lateFiltering() && event.eventTimeMs() <= lateWatermarkMs(stepIndex);
    }

    private boolean lateFiltering() {
        return watermarkDelay != null && Times.isEventTime(timeMode);
    }

    /**
     * The replayable scenario of {@code factory}'s rows: {@code batch}, {@code batchAt},
     * {@code tick} and {@code restart} steps. Run it with the query {@link #applyTo} gives.
     */
    public <I> Scenario<I> toScenario(EventFactory<? extends I> factory) {
        Objects.requireNonNull(factory, "factory must not be null");
        Scenario.Builder<I> b = Scenario.builder();
        for (Step s : steps) {
            if (s instanceof Input in) {
                List<I> rows = rows(in, factory);
                if (in.atMs() == null) {
                    b.batch(rows);
                } else {
                    b.batchAt(Instant.ofEpochMilli(in.atMs()), rows);
                }
            } else if (s instanceof Tick tick) {
                b.tick(Instant.ofEpochMilli(tick.toMs()));
            } else {
                b.restart();
            }
        }
        return b.build();
    }

    static <I> List<I> rows(Input in, EventFactory<? extends I> factory) {
        List<I> rows = new ArrayList<>(in.events().size());
        for (GenEvent e : in.events()) {
            rows.add(Objects.requireNonNull(factory.create(e.key(), e.eventTimeMs(), e.variant()),
                    () -> "the EventFactory returned null for " + e));
        }
        return rows;
    }

    /**
     * A readable multi-line step list: a header with the time mode, watermark delay, shuffle
     * partitions (when the scenario has a count) and sizes; per step its kind, processing time (ISO
     * UTC and the jump from the step before), in EventTime mode with a watermark the late-row
     * watermark, and one line per event with key, event time (ISO UTC and offset from the base),
     * variant and whether the late-row filter drops it; restarts as their own steps.
     */
    public String describe() {
        StringBuilder b = new StringBuilder();
        b.append("GenScenario: ").append(Times.name(timeMode)).append(" mode, ")
                .append(watermarkDelay == null ? "no watermark" : "watermark delay " + Times.span(watermarkDelay.toMillis()));
        if (shufflePartitions != null) {
            b.append(", ").append(shufflePartitions).append(shufflePartitions == 1 ? " shuffle partition" : " shuffle partitions");
        }
        b.append(", event-time base ").append(eventTimeBase).append("; ")
                .append(steps.size()).append(steps.size() == 1 ? " step, " : " steps, ")
                .append(eventCount()).append(eventCount() == 1 ? " event" : " events");
        int restarts = restartCount();
        if (restarts > 0) {
            b.append(", ").append(restarts).append(restarts == 1 ? " restart" : " restarts");
        }
        long now = 0;
        for (int i = 0; i < steps.size(); i++) {
            b.append("\n  ").append(i + 1).append(". ");
            if (steps.get(i) instanceof Input in) {
                describeInput(b, i, in, now);
                now = in.atMs() == null ? now : in.atMs();
            } else if (steps.get(i) instanceof Tick tick) {
                b.append("tick to ").append(Times.instant(tick.toMs())).append(" (clock ")
                        .append(Times.offset(tick.toMs() - now)).append(')');
                now = tick.toMs();
            } else {
                b.append("restart from the checkpoint (state, timers and watermark kept; no batch before the next input)");
            }
        }
        return b.toString();
    }

    private void describeInput(StringBuilder b, int i, Input in, long now) {
        b.append("input, ").append(in.events().isEmpty() ? "no" : in.events().size())
                .append(in.events().size() == 1 ? " event, " : " events, ");
        if (in.atMs() == null) {
            b.append("at the current processing time ").append(Times.instant(now));
        } else {
            b.append("at ").append(Times.instant(in.atMs())).append(" (clock ").append(Times.offset(in.atMs() - now)).append(')');
        }
        long wm = lateWatermarkMs(i);
        if (lateFiltering()) {
            b.append("; late watermark ").append(wm == 0 ? Times.instant(0) + " (initial)" : eventTime(wm));
        }
        for (GenEvent e : in.events()) {
            b.append("\n       ").append(e.key()).append(" @ ").append(eventTime(e.eventTimeMs())).append(' ')
                    .append(variantName(e.variant()));
            if (isDroppedLate(i, e)) {
                b.append("  -- dropped late (").append(e.eventTimeMs() == wm ? "= watermark" : "before watermark").append(')');
            }
        }
    }

    private String eventTime(long ms) {
        return Times.instant(ms) + " (base" + Times.offset(ms - eventTimeBase.toEpochMilli()) + ")";
    }

    private String variantName(int variant) {
        return variant < variantNames.size() ? variantNames.get(variant) : "v" + variant;
    }

    /**
     * Writes this scenario as replayable files into {@code dir} (created if missing): one file per
     * input step, {@code 001.jsonl}, {@code 002.jsonl}, ... in step order, holding one JSON object
     * per line (an empty batch is an empty file), and {@code scenario.txt}: a replay plan with one
     * line per step ({@code input 001.jsonl at=current}, {@code input 002.jsonl
     * at=1970-01-01T00:00:05Z}, {@code tick to=1970-01-01T00:00:10Z}, {@code restart}) followed by
     * {@link #describe()}. A scenario with a shuffle partition count says so in a {@code #} comment
     * line at the top of the plan ({@code # shuffle partitions: 3 ...}). Numbered {@code .jsonl}
     * files left in {@code dir} by an earlier, longer scenario are deleted.
     *
     * <pre>{@code
     * shrunk.writeBatchFiles(Path.of("target/tws-failures/cart"), row -> mapper.writeValueAsString(row), carts);
     * }</pre>
     *
     * @param dir        the directory to write into
     * @param toJsonLine one row as one line of JSON (no line breaks)
     * @param factory    makes the rows from the events
     * @return the batch files written, in step order
     * @throws IOException if writing fails
     */
    public <I> List<Path> writeBatchFiles(Path dir, Function<? super I, String> toJsonLine,
            EventFactory<? extends I> factory) throws IOException {
        Objects.requireNonNull(dir, "dir must not be null");
        Objects.requireNonNull(toJsonLine, "toJsonLine must not be null");
        Objects.requireNonNull(factory, "factory must not be null");
        return ScenarioFiles.write(this, dir, toJsonLine, factory);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GenScenario g && timeMode.equals(g.timeMode) && eventTimeBase.equals(g.eventTimeBase)
                && Objects.equals(watermarkDelay, g.watermarkDelay) && variantNames.equals(g.variantNames)
                && steps.equals(g.steps) && Objects.equals(shufflePartitions, g.shufflePartitions);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Times.name(timeMode), eventTimeBase, watermarkDelay, variantNames, steps, shufflePartitions);
    }

    /** Same as {@link #describe()}. */
    @Override
    public String toString() {
        return describe();
    }
}
