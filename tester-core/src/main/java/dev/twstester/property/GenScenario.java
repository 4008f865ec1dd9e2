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
import org.apache.spark.sql.streaming.Trigger;

import dev.twstester.Scenario;
import dev.twstester.Scenario.Step;
import dev.twstester.TwsQuery;
import dev.twstester.io.ScenarioPlan;

/**
 * A generated, shrinkable scenario: the steps of a {@link Scenario} over {@link GenEvent}s (input
 * batches, rows added to the source, clock ticks, stops and starts from the checkpoint),
 * independent of the user's row type until {@link #toScenario(EventFactory)} turns it into a
 * {@link Scenario} the simulator or live Spark replays, optionally with a shuffle partition count
 * and a trigger interval for the query ({@link #applyTo}). Immutable; {@link ScenarioGenerator}
 * makes them, {@link Shrinker} reduces them, {@link #describe()} prints them as a step list.
 *
 * <pre>{@code
 * GenScenario gen = GenScenario.of(TimeMode.EventTime(), Scenario.<GenEvent>builder()
 *                 .addData(List.of(new GenEvent("a", t0 + 30_000, 0)))
 *                 .tick(Instant.ofEpochSecond(1))             // the trigger at 1 s runs the batch
 *                 .stop()
 *                 .addData(List.of(new GenEvent("a", t0 + 20_000, 0)))
 *                 .start()                                   // the start's trigger reads the row
 *                 .build().steps())
 *         .withEventTimeBase(Instant.ofEpochMilli(t0))
 *         .withWatermarkDelay(Duration.ofSeconds(10))
 *         .withTriggerInterval(Duration.ofSeconds(1));
 * TwsQuery<String, CartEvent, CartAlert> q = gen.applyTo(CartWatch.query());
 * RunResult<String, CartEvent, CartAlert> run = new TwsSimulator<>(q).run(gen.toScenario(carts));
 * System.out.println(gen.describe());
 * }</pre>
 *
 * <h2>Validity</h2>
 * The factory and the {@code with*} methods throw {@link IllegalArgumentException} for steps that
 * cannot run. Processing time never moves backwards: an input's {@code at} and a tick's {@code to}
 * are at or after the time of the step before (the clock starts at the epoch). {@code Stop} and
 * {@code Start} alternate, starting with {@code Stop}; no {@code Input} runs while the query is
 * stopped ({@code AddData} and {@code Tick} may). In ProcessingTime mode with a zero trigger
 * interval every input has an {@code at}, and in ProcessingTime mode every step time is strictly
 * later than the one before (live Spark runs one trigger per clock move there). With a trigger
 * interval above zero a scenario has no {@code Input} steps: rows arrive by {@code AddData} and
 * the triggers the ticks reach run them, so the steps stay valid whenever triggers run. Which
 * batches run, and when, is for the engines to say: this class does not predict them.
 */
public final class GenScenario {
    private final TimeMode timeMode;
    private final Instant eventTimeBase;
    private final Duration watermarkDelay;
    private final List<String> variantNames;
    private final List<Step<GenEvent>> steps;
    private final Integer shufflePartitions;
    private final Duration triggerInterval;

    private GenScenario(TimeMode timeMode, Instant eventTimeBase, Duration watermarkDelay, List<String> variantNames,
            List<Step<GenEvent>> steps, Integer shufflePartitions, Duration triggerInterval) {
        this(timeMode, eventTimeBase, watermarkDelay, variantNames, steps, shufflePartitions, triggerInterval, true);
    }

    private GenScenario(TimeMode timeMode, Instant eventTimeBase, Duration watermarkDelay, List<String> variantNames,
            List<Step<GenEvent>> steps, Integer shufflePartitions, Duration triggerInterval, boolean check) {
        this.timeMode = Objects.requireNonNull(timeMode, "timeMode must not be null");
        this.eventTimeBase = Objects.requireNonNull(eventTimeBase, "eventTimeBase must not be null");
        this.watermarkDelay = watermarkDelay;
        this.variantNames = List.copyOf(variantNames);
        this.steps = List.copyOf(Objects.requireNonNull(steps, "steps must not be null"));
        this.shufflePartitions = shufflePartitions;
        this.triggerInterval = triggerInterval;
        String problem = check ? problem(timeMode, intervalMs(triggerInterval), this.steps) : null;
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
    }

    /**
     * A scenario for a query in {@code timeMode} with the given steps, event-time base the epoch,
     * no watermark, variants named by number, and no shuffle partition count or trigger interval
     * of its own (the query's apply; the steps must be valid for a zero interval).
     */
    public static GenScenario of(TimeMode timeMode, List<? extends Step<GenEvent>> steps) {
        return new GenScenario(timeMode, Instant.EPOCH, null, List.of(), new ArrayList<>(steps), null, null);
    }

    /** This scenario with other steps (same mode, base, delay, variant names, partitions and trigger). */
    public GenScenario withSteps(List<? extends Step<GenEvent>> newSteps) {
        return new GenScenario(timeMode, eventTimeBase, watermarkDelay, variantNames, new ArrayList<>(newSteps),
                shufflePartitions, triggerInterval);
    }

    /** This scenario with {@code newSteps} when they can run (checked once), else this scenario itself. */
    GenScenario withStepsOrSame(List<Step<GenEvent>> newSteps) {
        return problem(timeMode, intervalMs(triggerInterval), newSteps) != null ? this
                : new GenScenario(timeMode, eventTimeBase, watermarkDelay, variantNames, newSteps, shufflePartitions,
                        triggerInterval, false);
    }

    /** This scenario with the instant event-time offsets in {@link #describe()} count from. */
    public GenScenario withEventTimeBase(Instant base) {
        return new GenScenario(timeMode, base, watermarkDelay, variantNames, steps, shufflePartitions, triggerInterval);
    }

    /** This scenario with the query's watermark delay ({@code withWatermark}); null for no watermark. */
    public GenScenario withWatermarkDelay(Duration delay) {
        if (delay != null && delay.isNegative()) {
            throw new IllegalArgumentException("watermark delay must not be negative: " + delay);
        }
        return new GenScenario(timeMode, eventTimeBase, delay, variantNames, steps, shufflePartitions, triggerInterval);
    }

    /** This scenario with names for the variants in {@link #describe()} (index = variant). */
    public GenScenario withVariantNames(List<String> names) {
        return new GenScenario(timeMode, eventTimeBase, watermarkDelay, Objects.requireNonNull(names, "names must not be null"),
                steps, shufflePartitions, triggerInterval);
    }

    /**
     * This scenario run by a query with {@code spark.sql.shuffle.partitions} = {@code partitions}
     * ({@link #applyTo}); shown in {@link #describe()} so a failing case replays with the same count.
     */
    public GenScenario withShufflePartitions(int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("withShufflePartitions(" + partitions + "): need at least 1 partition");
        }
        return new GenScenario(timeMode, eventTimeBase, watermarkDelay, variantNames, steps, partitions, triggerInterval);
    }

    /**
     * This scenario run by a query with trigger {@code Trigger.ProcessingTime(interval)}
     * ({@link #applyTo}; zero is Spark's default); null for the query's own trigger. A non-zero
     * interval takes steps without {@code Input} (see "Validity").
     */
    public GenScenario withTriggerInterval(Duration interval) {
        if (interval != null && (interval.isNegative() || interval.toMillis() * 1_000_000 != interval.toNanos())) {
            throw new IllegalArgumentException("withTriggerInterval(" + interval + "): give whole milliseconds, 0 or more");
        }
        return new GenScenario(timeMode, eventTimeBase, watermarkDelay, variantNames, steps, shufflePartitions, interval);
    }

    private static long intervalMs(Duration interval) {
        return interval == null ? 0 : interval.toMillis();
    }

    /** Why {@code steps} cannot run in {@code mode} with trigger interval {@code intervalMs}, or null when they can. */
    static String problem(TimeMode mode, long intervalMs, List<Step<GenEvent>> steps) {
        boolean processingTime = Times.isProcessingTime(mode);
        boolean running = true;
        long now = 0;
        for (int i = 0; i < steps.size(); i++) {
            StepParts<GenEvent> step = StepParts.of(Objects.requireNonNull(steps.get(i), "steps must not contain null"));
            String problem = switch (step.kind()) {
                case STOP, START -> {
                    boolean stop = step.kind() == StepParts.Kind.STOP;
                    String refused = stop == running ? null : stop ? "stop while the query is stopped; a start must come first"
                            : "start while the query runs; a stop must come first";
                    running = refused == null ? !stop : running;
                    yield refused;
                }
                case INPUT -> inputProblem(step, running, intervalMs, processingTime);
                case ADD, TICK -> null;
            };
            if (problem != null) {
                return "step " + (i + 1) + ": " + problem;
            }
            Instant t = step.time();
            if (t == null) {
                continue;
            }
            long ms = t.toEpochMilli();
            if (processingTime && ms <= now) {
                return "step " + (i + 1) + ": processing time " + t + " is not after " + Times.instant(now)
                        + "; in ProcessingTime mode each step needs a strictly later time (one clock move per trigger)";
            }
            if (ms < now) {
                return "step " + (i + 1) + ": processing time " + t + " is before " + Times.instant(now)
                        + "; processing time never moves backwards";
            }
            now = ms;
        }
        return null;
    }

    /** Why an input step cannot run there, or null. */
    private static String inputProblem(StepParts<GenEvent> input, boolean running, long intervalMs,
            boolean processingTime) {
        if (!running) {
            return "an input batch while the query is stopped; add the rows (AddData) or start it first";
        }
        if (intervalMs > 0) {
            return "an input step with a trigger interval of " + Times.span(intervalMs) + ": rows arrive by"
                    + " AddData steps and ticks reach the triggers that run them";
        }
        if (input.time() == null && processingTime) {
            return "in ProcessingTime mode every input needs a processing time (at): "
                    + "live Spark runs a batch only on a clock move";
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

    /** The steps, in order. */
    public List<Step<GenEvent>> steps() {
        return steps;
    }

    /** The steps as a {@link Scenario} of events. */
    public Scenario<GenEvent> scenario() {
        return new Scenario<>(steps);
    }

    /**
     * The shuffle partition count this scenario's query runs with ({@link #withShufflePartitions});
     * empty when the query's own count applies.
     */
    public OptionalInt shufflePartitions() {
        return shufflePartitions == null ? OptionalInt.empty() : OptionalInt.of(shufflePartitions);
    }

    /** The trigger interval this scenario's query runs with ({@link #withTriggerInterval}); empty for the query's own. */
    public Optional<Duration> triggerInterval() {
        return Optional.ofNullable(triggerInterval);
    }

    /**
     * The query to run this scenario with: {@code query} with {@link #shufflePartitions()} and
     * {@link #triggerInterval()} when the scenario has them, else {@code query} itself. Use it for
     * every engine compared.
     *
     * <pre>{@code
     * TwsQuery<String, CartEvent, CartAlert> q = gen.applyTo(CartWatch.query());
     * RunComparison.simulatorVsSpark().firstDifference(new TwsSimulator<>(q).run(gen.toScenario(carts)),
     *         LiveRunner.of(q).run(gen.toScenario(carts)));
     * }</pre>
     */
    public <K, I, O> TwsQuery<K, I, O> applyTo(TwsQuery<K, I, O> query) {
        Objects.requireNonNull(query, "query must not be null");
        TwsQuery<K, I, O> q = shufflePartitions == null ? query : query.withShufflePartitions(shufflePartitions);
        return triggerInterval == null ? q : q.withTrigger(Trigger.ProcessingTime(triggerInterval.toMillis()));
    }

    /** Number of {@code Start} steps: restarts from the checkpoint. */
    public int restartCount() {
        return (int) steps.stream().filter(s -> StepParts.is(s, StepParts.Kind.START)).count();
    }

    /** Number of events over all input and add steps. */
    public int eventCount() {
        return steps.stream().mapToInt(s -> events(s).size()).sum();
    }

    /** The events of step {@code stepIndex} (0-based): an input's or an add's; empty for the other steps. */
    public List<GenEvent> events(int stepIndex) {
        return events(steps.get(stepIndex));
    }

    static List<GenEvent> events(Step<GenEvent> step) {
        return StepParts.rowsOf(step);
    }

    /**
     * The replayable scenario of {@code factory}'s rows, step for step. Run it with the query
     * {@link #applyTo} gives.
     */
    public <I> Scenario<I> toScenario(EventFactory<? extends I> factory) {
        return toScenario(factory, 0);
    }

    /** {@link #toScenario(EventFactory)} of the steps from {@code fromStep} on. */
    <I> Scenario<I> toScenario(EventFactory<? extends I> factory, int fromStep) {
        Objects.requireNonNull(factory, "factory must not be null");
        List<Step<I>> out = new ArrayList<>(steps.size() - fromStep);
        for (Step<GenEvent> s : steps.subList(fromStep, steps.size())) {
            StepParts<GenEvent> parts = StepParts.of(s);
            out.add(parts.withRows(rows(parts.rows(), factory)));
        }
        return new Scenario<>(out);
    }

    /**
     * Whether this scenario is {@code prefix} with steps added at the end: the same settings (time
     * mode, event-time base, watermark delay, variant names, partitions, trigger interval), more
     * steps, and {@code prefix}'s steps first.
     */
    boolean extendsScenario(GenScenario prefix) {
        if (steps.size() <= prefix.steps.size() || !sameSettings(prefix)) {
            return false;
        }
        for (int i = 0; i < prefix.steps.size(); i++) {
            if (steps.get(i) != prefix.steps.get(i) && !steps.get(i).equals(prefix.steps.get(i))) {
                return false;
            }
        }
        return true;
    }

    private static <I> List<I> rows(List<GenEvent> events, EventFactory<? extends I> factory) {
        List<I> rows = new ArrayList<>(events.size());
        for (GenEvent e : events) {
            rows.add(Objects.requireNonNull(factory.create(e.key(), e.eventTimeMs(), e.variant()),
                    () -> "the EventFactory returned null for " + e));
        }
        return rows;
    }

    /**
     * A readable multi-line step list: a header with the time mode, watermark delay, shuffle
     * partitions and trigger interval (when the scenario has them) and sizes; per step its kind,
     * processing time (ISO UTC and the jump from the step before; with a trigger interval whether a
     * tick lands on a multiple of it) and one line per event with key, event time (ISO UTC and
     * offset from the base) and variant. Which batches the steps run is not shown: the engines
     * decide that.
     */
    public String describe() {
        StringBuilder b = new StringBuilder();
        b.append("GenScenario: ").append(Times.name(timeMode)).append(" mode, ")
                .append(watermarkDelay == null ? "no watermark" : "watermark delay " + Times.span(watermarkDelay.toMillis()));
        if (shufflePartitions != null) {
            b.append(", ").append(shufflePartitions).append(shufflePartitions == 1 ? " shuffle partition" : " shuffle partitions");
        }
        if (triggerInterval != null) {
            b.append(", trigger interval ").append(Times.span(triggerInterval.toMillis()));
        }
        b.append(", event-time base ").append(eventTimeBase).append("; ")
                .append(steps.size()).append(steps.size() == 1 ? " step, " : " steps, ")
                .append(eventCount()).append(eventCount() == 1 ? " event" : " events");
        int restarts = restartCount();
        if (restarts > 0) {
            b.append(", ").append(restarts).append(restarts == 1 ? " restart" : " restarts");
        }
        long now = 0;
        long interval = intervalMs(triggerInterval);
        for (int i = 0; i < steps.size(); i++) {
            StepParts<GenEvent> s = StepParts.of(steps.get(i));
            b.append("\n  ").append(i + 1).append(". ").append(describe(s, now, interval));
            now = s.time() == null ? now : s.time().toEpochMilli();
        }
        return b.toString();
    }

    /** One step of {@link #describe()}, {@code now} the processing time before it. */
    private String describe(StepParts<GenEvent> s, long now, long interval) {
        return switch (s.kind()) {
            case INPUT -> "input, " + count(s.rows()) + ", " + (s.time() == null
                    ? "at the current processing time " + Times.instant(now)
                    : "at " + s.time() + " (clock " + Times.offset(s.time().toEpochMilli() - now) + ")")
                    + describeEvents(s.rows());
            case ADD -> "add " + count(s.rows()) + " to the source" + describeEvents(s.rows());
            case TICK -> {
                long to = s.time().toEpochMilli();
                yield "tick to " + s.time() + " (clock " + Times.offset(to - now) + (interval <= 0 ? ""
                        : to % interval == 0 ? ", a multiple of the interval" : ", between multiples of the interval")
                        + ")";
            }
            case STOP -> "stop (nothing runs until the start; rows added wait)";
            case START -> "start from the checkpoint (state, timers and watermark kept; its first trigger runs now)";
        };
    }

    private static String count(List<GenEvent> events) {
        return (events.isEmpty() ? "no" : String.valueOf(events.size())) + (events.size() == 1 ? " event" : " events");
    }

    private String describeEvents(List<GenEvent> events) {
        StringBuilder b = new StringBuilder();
        for (GenEvent e : events) {
            b.append("\n       ").append(e.key()).append(" @ ").append(eventTime(e.eventTimeMs())).append(' ')
                    .append(variantName(e.variant()));
        }
        return b.toString();
    }

    private String eventTime(long ms) {
        return Times.instant(ms) + " (base" + Times.offset(ms - eventTimeBase.toEpochMilli()) + ")";
    }

    private String variantName(int variant) {
        return variant < variantNames.size() ? variantNames.get(variant) : "v" + variant;
    }

    /**
     * Writes this scenario as replayable files into {@code dir} in {@link ScenarioPlan}'s format:
     * one numbered JSON-lines file per input and add step ({@code 001.jsonl}, ...), and
     * {@code scenario.txt}, the plan (one line per step), followed by {@link #describe()}. The
     * shuffle partition count and trigger interval, when the scenario has them, are {@code #}
     * comment lines at the top of the plan, with the options that replay them. Numbered
     * {@code .jsonl} files left in {@code dir} by an earlier, longer scenario are deleted.
     *
     * <pre>{@code
     * shrunk.writeBatchFiles(Path.of("target/tws-failures/cart"), row -> mapper.writeValueAsString(row), carts);
     * }</pre>
     *
     * @param dir        the directory to write into
     * @param toJsonLine one row as one line of JSON (no line breaks)
     * @param factory    makes the rows from the events
     * @return the rows files written, in step order
     * @throws IOException if writing fails
     */
    public <I> List<Path> writeBatchFiles(Path dir, Function<? super I, String> toJsonLine,
            EventFactory<? extends I> factory) throws IOException {
        Objects.requireNonNull(dir, "dir must not be null");
        Objects.requireNonNull(toJsonLine, "toJsonLine must not be null");
        Objects.requireNonNull(factory, "factory must not be null");
        ScenarioPlan.Writer<I> w = ScenarioPlan.writer(dir, toJsonLine);
        // comments, so that the plan's steps stay the scenario's; the settings change the run
        if (shufflePartitions != null) {
            w.comment("shuffle partitions: " + shufflePartitions + " (run the query with withShufflePartitions("
                    + shufflePartitions + "); replay with --shuffle-partitions " + shufflePartitions + ")");
        }
        if (triggerInterval != null) {
            long ms = triggerInterval.toMillis();
            w.comment("trigger interval: " + Times.span(ms) + " (run the query with withTrigger(Trigger.ProcessingTime("
                    + ms + ")); replay with --trigger-interval " + triggerInterval + ")");
        }
        Scenario<I> scenario = toScenario(factory);
        for (Step<I> step : scenario.steps()) {
            w.step(step);
        }
        return w.finish(describe());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GenScenario g && sameSettings(g) && steps.equals(g.steps);
    }

    /** The same time mode, event-time base, watermark delay, variant names, partitions and trigger interval. */
    private boolean sameSettings(GenScenario g) {
        return timeMode.equals(g.timeMode) && eventTimeBase.equals(g.eventTimeBase)
                && Objects.equals(watermarkDelay, g.watermarkDelay) && variantNames.equals(g.variantNames)
                && Objects.equals(shufflePartitions, g.shufflePartitions) && Objects.equals(triggerInterval, g.triggerInterval);
    }

    @Override
    public int hashCode() {
        return Objects.hash(Times.name(timeMode), eventTimeBase, watermarkDelay, variantNames, steps, shufflePartitions,
                triggerInterval);
    }

    /** Same as {@link #describe()}. */
    @Override
    public String toString() {
        return describe();
    }
}
