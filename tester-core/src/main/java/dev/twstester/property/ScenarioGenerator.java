package dev.twstester.property;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;

import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.Scenario;
import dev.twstester.Scenario.Step;

/**
 * Generates {@link GenScenario}s from a seed: micro-batches of events over a few keys, with the
 * stream's edge cases placed on purpose rather than left to chance. Configured fluently; the
 * same configuration and seed always give the same scenario ({@link SplittableRandom}).
 *
 * <pre>{@code
 * ScenarioGenerator carts = ScenarioGenerator.create()
 *         .keys("u1", "u2")
 *         .variants("add", "checkout")                 // variant 0 and 1 for the EventFactory
 *         .timeMode(TimeMode.EventTime())
 *         .watermarkDelay(Duration.ofSeconds(10))       // the query's withWatermark delay
 *         .interestingDurations(Duration.ofSeconds(30)) // e.g. the processor's timer offset
 *         .batches(1, 6)
 *         .eventsPerBatch(0, 4)
 *         .restartChance(0.1)                           // now and then a stop and a start from the checkpoint
 *         .triggerIntervals(Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(5)); // one per scenario
 * GenScenario gen = carts.generate(42L);
 * }</pre>
 *
 * <h2>What it aims at</h2>
 * <ul>
 *   <li><b>Watermark boundaries</b> (with {@link #watermarkDelay}): it tracks the watermark the
 *       next batch's rows are compared with ({@code max event time so far - delay}, floored at 0,
 *       never down) and now and then puts an event exactly on it (dropped: equality is late),
 *       1 ms after it (kept), or far before it, and events with the same time as earlier ones.</li>
 *   <li><b>Event-time timer boundaries</b> (EventTime mode with a watermark and
 *       {@link #interestingDurations}): events that move the watermark exactly onto, 1 ms before
 *       or 1 ms after {@code earlier event time + duration}.</li>
 *   <li><b>Processing-time boundaries</b> ({@link #interestingDurations}): clock jumps that land
 *       exactly on, 1 ms before or 1 ms after {@code time of an earlier input + duration}, for TTL
 *       expiry ({@code batchTs >= writeTs + ttl}) and processing-time timers ({@code expiry <= batchTs}).</li>
 *   <li><b>Restarts</b> (with {@link #restartChance}): the query stops between two steps and
 *       starts again from its checkpoint, e.g. between a batch that registered timers and the tick
 *       that would fire them, or right after a batch that moved the watermark (with a trigger
 *       interval its no-data batch is then pending); rows may be added and the clock may move
 *       while it is stopped.</li>
 *   <li><b>Triggers</b> (with {@link #triggerIntervals}): each scenario runs with one of the
 *       intervals ({@link GenScenario#triggerInterval()}). With an interval above zero rows are
 *       added to the source ({@code AddData}), sometimes in two parts with a tick between, and
 *       ticks move the clock exactly onto a trigger time, between two of them (no trigger runs),
 *       past the next one to a time between multiples, or past several of them at once; idle ticks
 *       follow now and then (a pending no-data batch runs there, or nothing).</li>
 * </ul>
 *
 * <h2>Steps by time mode</h2>
 * With a zero interval (or none): in EventTime and None mode inputs mostly run at the current
 * processing time, some at a later one, with occasional ticks (which run nothing in these modes but
 * move processing time); in ProcessingTime mode every input has a processing time strictly later
 * than the step before, and so has every tick (live Spark runs one batch per clock move). With an
 * interval above zero there are no input steps: rows are added and ticks run the triggers. The
 * clock starts at the epoch. In every mode a stop and its start can come between any two steps,
 * never first or last.
 *
 * <p>Not thread-safe while being configured; {@link #generate} does not change the generator.
 */
public final class ScenarioGenerator {
    private static final double TICK_CHANCE = 0.3;
    private static final double INPUT_AT_CHANCE = 0.2;
    private static final double EMPTY_BATCH_CHANCE = 0.12;
    /** Mixed into the seed of the restarts' own random source, so they leave the other steps as they were. */
    private static final long RESTART_SALT = 0x5265_7374_6172_7473L;
    /** Mixed into the seed for the choice of trigger interval. */
    private static final long TRIGGER_SALT = 0x5472_6967_6765_7273L;
    /** Chance that the rows of a triggered batch arrive in two parts, with a tick between them. */
    private static final double SPLIT_ADD_CHANCE = 0.3;

    private List<String> keys = List.of("a", "b", "c");
    private int variants = 1;
    private List<String> variantNames = List.of();
    private TimeMode timeMode = TimeMode.None();
    /** Whether {@link #timeMode} was called (else {@link #defaultsFrom} may take the query's). */
    private boolean timeModeSet;
    private int minBatches = 1;
    private int maxBatches = 6;
    private int minEvents = 0;
    private int maxEvents = 5;
    private Instant eventTimeBase = Instant.parse("2024-01-01T00:00:00Z");
    private long spreadMs = 60_000;
    private Duration watermarkDelay;
    private long[] processingSteps = {1_000, 5_000, 30_000};
    private long[] interesting = {};
    private double restartChance;
    /** Trigger intervals to choose from, in ms; null: the scenarios carry none (the query's own, made for 0). */
    private long[] triggerIntervals;

    private ScenarioGenerator() {}

    /**
     * A generator with the defaults: keys a, b, c; one variant; {@code TimeMode.None()}; 1 to 6
     * input batches of 0 to 5 events; event times from 2024-01-01T00:00:00Z spread over 1 minute;
     * no watermark; processing-time steps of 1 s, 5 s and 30 s; no interesting durations; no restarts;
     * no trigger interval (the query's own, which must then be 0: Spark's default).
     */
    public static ScenarioGenerator create() {
        return new ScenarioGenerator();
    }

    /** The grouping keys events use (at least one). */
    public ScenarioGenerator keys(String... newKeys) {
        return keys(Arrays.asList(newKeys));
    }

    /** The grouping keys events use (at least one). */
    public ScenarioGenerator keys(List<String> newKeys) {
        Objects.requireNonNull(newKeys, "keys must not be null");
        if (newKeys.isEmpty()) {
            throw new IllegalArgumentException("keys(...) needs at least one key");
        }
        this.keys = List.copyOf(newKeys);
        return this;
    }

    /** The number of event kinds; events get variants 0 to {@code count - 1}. */
    public ScenarioGenerator variants(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("variants(" + count + "): there must be at least one variant");
        }
        this.variants = count;
        this.variantNames = List.of();
        return this;
    }

    /** Named event kinds; variant {@code i} is {@code names[i]} in step descriptions. */
    public ScenarioGenerator variants(String... names) {
        variants(names.length);
        this.variantNames = List.of(names);
        return this;
    }

    /** The query's time mode (default {@code TimeMode.None()}). */
    public ScenarioGenerator timeMode(TimeMode mode) {
        this.timeMode = Objects.requireNonNull(mode, "timeMode must not be null");
        this.timeModeSet = true;
        return this;
    }

    /**
     * How many batches of rows a scenario has, both inclusive (default 1 to 6): input steps, or with
     * a trigger interval above zero, rounds of added rows with the tick whose trigger reads them.
     */
    public ScenarioGenerator batches(int min, int max) {
        if (min < 1 || max < min) {
            throw new IllegalArgumentException("batches(" + min + ", " + max + "): need 1 <= min <= max");
        }
        this.minBatches = min;
        this.maxBatches = max;
        return this;
    }

    /**
     * How many events an input or add step has, both inclusive (default 0 to 5); with min 0 some
     * batches are empty.
     */
    public ScenarioGenerator eventsPerBatch(int min, int max) {
        if (min < 0 || max < min) {
            throw new IllegalArgumentException("eventsPerBatch(" + min + ", " + max + "): need 0 <= min <= max");
        }
        this.minEvents = min;
        this.maxEvents = max;
        return this;
    }

    /** Where event times start (default 2024-01-01T00:00:00Z). */
    public ScenarioGenerator eventTimeBase(Instant base) {
        this.eventTimeBase = Objects.requireNonNull(base, "base must not be null");
        return this;
    }

    /** How far an ordinary event's time lands from the latest event time so far (default 1 minute). */
    public ScenarioGenerator eventTimeSpread(Duration spread) {
        Objects.requireNonNull(spread, "spread must not be null");
        if (spread.toMillis() < 1) {
            throw new IllegalArgumentException("eventTimeSpread(" + spread + ") must be at least 1 ms");
        }
        this.spreadMs = spread.toMillis();
        return this;
    }

    /**
     * Takes the time mode and the watermark delay from {@code query} where this generator has none
     * set, and fails when one that is set differs from the query's (the scenarios would aim at the
     * wrong clock or watermark). {@code DifferentialProperty.of} calls it, so a generator needs
     * neither repeated:
     * <pre>{@code
     * DifferentialProperty.of(CartWatch.query(), ScenarioGenerator.create().keys("ana", "bo"), events);
     * }</pre>
     * For a query of several operators ({@code TwsQuery#then}) the time mode is ProcessingTime when
     * any operator runs in it (the query's triggers then run a batch on every clock move), else
     * EventTime when any does, else None; the watermark delay is the first operator's, the only one
     * with a watermark.
     */
    public ScenarioGenerator defaultsFrom(dev.twstester.TwsQuery<?, ?, ?> query) {
        Objects.requireNonNull(query, "query must not be null");
        TimeMode queryMode = timeModeOf(query);
        if (!timeModeSet) {
            timeMode = queryMode;
        } else if (!timeMode.equals(queryMode)) {
            throw new IllegalArgumentException("the generator's timeMode(" + Times.name(timeMode) + ") differs from the "
                    + "query's " + Times.name(queryMode) + "; leave timeMode(...) out to take the query's");
        }
        if (query.eventTimeColumn().isPresent()) {
            Duration delay = query.watermarkDelay();
            if (watermarkDelay == null) {
                watermarkDelay = delay;
            } else if (!watermarkDelay.equals(delay)) {
                throw new IllegalArgumentException("the generator's watermarkDelay(" + watermarkDelay + ") differs from "
                        + "the query's watermark delay " + delay + "; leave watermarkDelay(...) out to take the query's");
            }
        }
        return this;
    }

    /**
     * The time mode the scenarios of {@code query} aim at: ProcessingTime when any operator runs in
     * it, else EventTime when any does, else None.
     */
    private static TimeMode timeModeOf(dev.twstester.TwsQuery<?, ?, ?> query) {
        List<TimeMode> modes = query.operators().stream().<TimeMode>map(dev.twstester.TwsQuery::timeMode).toList();
        return modes.stream().filter(Times::isProcessingTime).findFirst()
                .or(() -> modes.stream().filter(Times::isEventTime).findFirst()).orElse(query.timeMode());
    }

    /** The query's watermark delay ({@code withWatermark}); enables the watermark boundary events. */
    public ScenarioGenerator watermarkDelay(Duration delay) {
        Objects.requireNonNull(delay, "delay must not be null");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("watermarkDelay(" + delay + ") must not be negative");
        }
        this.watermarkDelay = delay;
        return this;
    }

    /** The sizes of ordinary processing-time jumps, each at least 1 ms (default 1 s, 5 s, 30 s). */
    public ScenarioGenerator processingTimeSteps(Duration... steps) {
        this.processingSteps = positiveMillis("processingTimeSteps", steps, false);
        return this;
    }

    /**
     * Durations the processor cares about, such as a TTL or a timer offset: clock jumps and (in
     * EventTime mode) watermark moves are placed exactly on, 1 ms before and 1 ms after them.
     */
    public ScenarioGenerator interestingDurations(Duration... durations) {
        this.interesting = positiveMillis("interestingDurations", durations, true);
        return this;
    }

    /**
     * The chance ({@code 0 <= chance < 1}, default 0: no restarts) that the query stops and starts
     * again from its checkpoint between two steps: it is tried once per gap between steps, never
     * before the first step or after the last. While it is stopped, rows may be added (read by the
     * start's trigger) and the clock may move. Restarts are drawn from their own random source: a
     * seed gives the same other steps whatever the chance, with restarts in between. A live run
     * stops and starts its streaming query for each restart.
     */
    public ScenarioGenerator restartChance(double chance) {
        if (!(chance >= 0 && chance < 1)) {
            throw new IllegalArgumentException("restartChance(" + chance + ") must be at least 0 and below 1");
        }
        this.restartChance = chance;
        return this;
    }

    /**
     * Trigger intervals ({@code Trigger.ProcessingTime}) to run the scenarios with, each at least 0
     * and in whole milliseconds: each scenario takes one, chosen from its seed, and carries it
     * ({@link GenScenario#applyTo} sets it on the query). With an interval above zero the scenario
     * adds rows and moves the clock instead of running input batches (see the class comment).
     */
    public ScenarioGenerator triggerIntervals(Duration... intervals) {
        if (intervals.length == 0) {
            throw new IllegalArgumentException("triggerIntervals(...) needs at least one interval (0 is Spark's default)");
        }
        long[] ms = new long[intervals.length];
        for (int i = 0; i < intervals.length; i++) {
            Duration d = Objects.requireNonNull(intervals[i], "triggerIntervals must not contain null");
            if (d.isNegative() || d.toMillis() * 1_000_000 != d.toNanos()) {
                throw new IllegalArgumentException("triggerIntervals(...): " + d + " must be whole milliseconds, 0 or more");
            }
            ms[i] = d.toMillis();
        }
        this.triggerIntervals = ms;
        return this;
    }

    private static long[] positiveMillis(String what, Duration[] durations, boolean allowEmpty) {
        if (durations.length == 0 && !allowEmpty) {
            throw new IllegalArgumentException(what + "(...) needs at least one duration");
        }
        long[] ms = new long[durations.length];
        for (int i = 0; i < durations.length; i++) {
            Duration d = Objects.requireNonNull(durations[i], what + " must not contain null");
            if (d.toMillis() < 1) {
                throw new IllegalArgumentException(what + "(...): " + d + " must be at least 1 ms");
            }
            ms[i] = d.toMillis();
        }
        return ms;
    }

    List<String> keyList() {
        return keys;
    }

    int variantCount() {
        return variants;
    }

    long[] interestingMs() {
        return interesting.clone();
    }

    long spreadMs() {
        return spreadMs;
    }

    /** The scenario for {@code seed}; the same seed and configuration always give the same scenario. */
    public GenScenario generate(long seed) {
        Run run = new Run(new SplittableRandom(seed));
        Long interval = triggerIntervals == null ? null
                : triggerIntervals[new SplittableRandom(seed ^ TRIGGER_SALT).nextInt(triggerIntervals.length)];
        List<Step<GenEvent>> steps = new ArrayList<>();
        int batches = run.between(minBatches, maxBatches);
        if (interval != null && interval > 0) {
            run.triggered(steps, batches, interval);
        } else {
            run.immediate(steps, batches);
        }
        GenScenario scenario = GenScenario.of(timeMode, withRestarts(steps, seed)).withEventTimeBase(eventTimeBase)
                .withWatermarkDelay(watermarkDelay).withVariantNames(variantNames);
        return interval == null ? scenario : scenario.withTriggerInterval(Duration.ofMillis(interval));
    }

    /**
     * {@code steps} with a stop and a start in each gap between two steps with chance
     * {@link #restartChance}; between them, now and then, rows added and a clock move that stays
     * before the next step's time.
     */
    private List<Step<GenEvent>> withRestarts(List<Step<GenEvent>> steps, long seed) {
        if (restartChance == 0) {
            return steps;
        }
        SplittableRandom random = new SplittableRandom(seed ^ RESTART_SALT);
        boolean strict = Times.isProcessingTime(timeMode);
        List<Step<GenEvent>> out = new ArrayList<>();
        long now = 0;
        long maxEventTime = eventTimeBase.toEpochMilli();
        for (int i = 0; i < steps.size(); i++) {
            if (i > 0 && random.nextDouble() < restartChance) {
                out.add(new Scenario.Stop<>());
                if (random.nextDouble() < 0.4) {
                    int n = 1 + random.nextInt(2);
                    List<GenEvent> events = new ArrayList<>(n);
                    for (int k = 0; k < n; k++) {
                        long t = Math.max(0, maxEventTime + random.nextLong(-spreadMs / 2, spreadMs / 2 + 1));
                        events.add(new GenEvent(keys.get(random.nextInt(keys.size())), t, random.nextInt(variants)));
                    }
                    out.add(new Scenario.AddData<>(events));
                }
                Instant next = nextTime(steps, i);
                long room = next == null ? processingSteps[random.nextInt(processingSteps.length)] + 1
                        : next.toEpochMilli() - now;
                if (room > 1 && random.nextDouble() < 0.4) {
                    now += 1 + random.nextLong(room - 1);           // strictly before the next step's time
                    out.add(new Scenario.Tick<>(Instant.ofEpochMilli(now)));
                } else if (!strict && room > 0 && random.nextDouble() < 0.1) {
                    out.add(new Scenario.Tick<>(Instant.ofEpochMilli(now)));
                }
                out.add(new Scenario.Start<>());
            }
            Step<GenEvent> step = steps.get(i);
            out.add(step);
            Instant t = StepParts.timeOf(step);
            now = t == null ? now : t.toEpochMilli();
            for (GenEvent e : GenScenario.events(step)) {
                maxEventTime = Math.max(maxEventTime, e.eventTimeMs());
            }
        }
        return out;
    }

    /** The time of the first step from {@code from} on that has one, or null. */
    private static Instant nextTime(List<Step<GenEvent>> steps, int from) {
        for (int i = from; i < steps.size(); i++) {
            Instant t = StepParts.timeOf(steps.get(i));
            if (t != null) {
                return t;
            }
        }
        return null;
    }

    /** The state of one generation: the random source, the clock and what the stream saw so far. */
    private final class Run {
        private final SplittableRandom random;
        private final long granularity;
        private final List<Long> inputTimes = new ArrayList<>();
        private final List<GenEvent> history = new ArrayList<>();
        private long now;
        private long maxEventTime = Long.MIN_VALUE;

        Run(SplittableRandom random) {
            this.random = random;
            // ordinary times on a coarse grid read better and collide more often; boundaries stay exact
            long g = 1;
            while (g < 1000 && g * 10 * 20 <= spreadMs) {
                g *= 10;
            }
            this.granularity = g;
        }

        boolean chance(double p) {
            return random.nextDouble() < p;
        }

        int between(int min, int max) {
            return min + random.nextInt(max - min + 1);
        }

        /** Steps for a zero interval: input batches, some at a later processing time, and ticks. */
        void immediate(List<Step<GenEvent>> steps, int batches) {
            if (chance(TICK_CHANCE / 2)) {
                ticks(steps);
            }
            for (int b = 0; b < batches; b++) {
                List<GenEvent> events = events();
                Long at = Times.isProcessingTime(timeMode) || chance(INPUT_AT_CHANCE) ? nextTime() : null;
                steps.add(new Scenario.Input<>(events, at == null ? null : Instant.ofEpochMilli(at)));
                afterInput(events, at);
                if (chance(TICK_CHANCE)) {
                    ticks(steps);
                }
            }
        }

        /**
         * Steps for an interval above zero: per batch, rows added (sometimes in two parts with a tick
         * between that reaches no trigger), then the tick whose trigger reads them, now and then
         * followed by idle ticks.
         */
        void triggered(List<Step<GenEvent>> steps, int batches, long interval) {
            if (chance(TICK_CHANCE / 2)) {
                tick(steps, triggerTime(interval));
            }
            for (int b = 0; b < batches; b++) {
                List<GenEvent> events = new ArrayList<>(events());
                steps.add(new Scenario.AddData<>(events));
                long next = Math.floorDiv(now, interval) * interval + interval;
                if (next - now > 1 && chance(SPLIT_ADD_CHANCE)) {
                    tick(steps, now + 1 + random.nextLong(next - now - 1));   // between trigger times: nothing runs
                    List<GenEvent> more = events();
                    steps.add(new Scenario.AddData<>(more));
                    events.addAll(more);
                }
                long at = triggerTime(interval);
                tick(steps, at);
                afterInput(events, at);
                if (chance(TICK_CHANCE)) {
                    int n = between(1, 2);
                    for (int i = 0; i < n; i++) {
                        tick(steps, triggerTime(interval));
                    }
                }
            }
        }

        private void tick(List<Step<GenEvent>> steps, long to) {
            now = to;
            steps.add(new Scenario.Tick<>(Instant.ofEpochMilli(to)));
        }

        /**
         * A clock move strictly after now that reaches the next trigger time: exactly onto it, onto a
         * later multiple (past several triggers), between two multiples after it, or an ordinary or
         * boundary processing-time step ({@link #nextTime()}) when that reaches it.
         */
        private long triggerTime(long interval) {
            long next = Math.floorDiv(now, interval) * interval + interval;
            double p = random.nextDouble();
            if (p < 0.4) {
                return next;
            }
            if (p < 0.55) {
                return next + interval * between(1, 4);
            }
            if (p < 0.7 && interval > 1) {
                return next + 1 + random.nextLong(interval - 1);
            }
            return Math.max(next, nextTime());
        }

        void ticks(List<Step<GenEvent>> steps) {
            int n = between(1, 2);
            for (int i = 0; i < n; i++) {
                tick(steps, nextTime());
            }
        }

        void afterInput(List<GenEvent> events, Long at) {
            now = at == null ? now : at;
            inputTimes.add(now);
            for (GenEvent e : events) {
                maxEventTime = Math.max(maxEventTime, e.eventTimeMs());
            }
        }

        /** A processing time strictly after now: on a boundary {@code input time + duration ± 1 ms}, or a plain step. */
        long nextTime() {
            if (interesting.length > 0 && !inputTimes.isEmpty() && chance(0.45)) {
                List<Long> targets = new ArrayList<>();
                for (long from : inputTimes) {
                    for (long d : interesting) {
                        for (long delta = -1; delta <= 1; delta++) {
                            if (from + d + delta > now) {
                                targets.add(from + d + delta);
                            }
                        }
                    }
                }
                if (!targets.isEmpty()) {
                    return targets.get(random.nextInt(targets.size()));
                }
            }
            return now + processingSteps[random.nextInt(processingSteps.length)];
        }

        List<GenEvent> events() {
            int n;
            if (maxEvents == 0 || (minEvents == 0 && chance(EMPTY_BATCH_CHANCE))) {
                n = 0;
            } else {
                n = between(Math.max(1, minEvents), maxEvents);
            }
            long lateWatermark = watermarkDelay == null || maxEventTime == Long.MIN_VALUE
                    ? 0 : Math.max(0, maxEventTime - watermarkDelay.toMillis());
            List<GenEvent> batch = new ArrayList<>(n);
            String previousKey = null;
            for (int i = 0; i < n; i++) {
                String key = previousKey != null && chance(0.3) ? previousKey : keys.get(random.nextInt(keys.size()));
                GenEvent e = new GenEvent(key, eventTime(lateWatermark), random.nextInt(variants));
                batch.add(e);
                history.add(e);
                previousKey = key;
            }
            return batch;
        }

        /** One event's time; {@code lateWatermark} is what this batch's rows are compared with. */
        private long eventTime(long lateWatermark) {
            double p = random.nextDouble();
            boolean watermarked = watermarkDelay != null && lateWatermark > 0;
            if (watermarked && p < 0.12) {
                return lateWatermark;                       // exactly on the watermark: dropped (equality is late)
            }
            if (watermarked && p < 0.24) {
                return lateWatermark + 1;                   // 1 ms after: kept
            }
            if (watermarked && p < 0.30) {                  // far behind: late
                return Math.max(0, lateWatermark - watermarkDelay.toMillis() - 1 - random.nextLong(spreadMs));
            }
            if (!history.isEmpty() && p < 0.38) {           // a tie with an earlier event
                return history.get(random.nextInt(history.size())).eventTimeMs();
            }
            if (interesting.length > 0 && watermarkDelay != null && Times.isEventTime(timeMode)
                    && !history.isEmpty() && p < 0.48) {    // moves the watermark onto earlier time + duration (± 1 ms)
                long from = history.get(random.nextInt(history.size())).eventTimeMs();
                return from + interesting[random.nextInt(interesting.length)] + watermarkDelay.toMillis()
                        + random.nextInt(3) - 1;
            }
            long front = maxEventTime == Long.MIN_VALUE ? eventTimeBase.toEpochMilli() : maxEventTime;
            long offset = maxEventTime == Long.MIN_VALUE ? random.nextLong(spreadMs) : random.nextLong(-spreadMs / 4, spreadMs);
            long base = eventTimeBase.toEpochMilli();
            long t = base + Math.floorDiv(front + offset - base, granularity) * granularity;
            return Math.max(0, t);
        }
    }
}
