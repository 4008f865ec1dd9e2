package dev.twstester.property;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

import dev.twstester.Scenario.Step;
import dev.twstester.property.StepParts.Kind;

/**
 * Reduces a failing {@link GenScenario} to a small one that still fails. Greedy: it tries
 * reductions from the biggest to the smallest and keeps the first that still fails, then starts
 * over from the smaller scenario, until no reduction fails (a fixpoint) or the budget of attempts
 * (calls of the predicate, default {@value #DEFAULT_MAX_ATTEMPTS}) is spent. Candidates already
 * tried are not tried again.
 *
 * <p>Reductions, in the order tried: drop runs of steps (halves, quarters, ..., single steps);
 * drop one stop with its start (the steps between them stay); drop all events of one key; drop all
 * ticks; drop all stops and starts; run the query with one shuffle partition, or one fewer (for a
 * scenario with a count); run it with a zero trigger interval (for a scenario with an interval,
 * when its steps allow); drop single events; merge two adjacent input steps or two adjacent add
 * steps; let an input run at the current processing time instead of its own (not in
 * ProcessingTime mode); rename a key to the smallest key; shift all event times down toward the
 * event-time base; move one event's time to the previous event's time, halfway to the smallest
 * time or onto it; lower a variant toward 0; close a processing-time gap (the step and all later
 * ones move earlier, so the distances after it stay). Every candidate is a valid scenario
 * ({@link GenScenario}'s rules: a start only after a stop, no input while stopped, time never
 * backwards, strictly increasing in ProcessingTime mode); a reduction that would break them is not
 * tried. A stop that a reduction leaves first, or right after a start, is dropped with its start
 * (the generator never makes those).
 *
 * <pre>{@code
 * ShrinkResult r = Shrinker.create().maxAttempts(500)
 *         .shrink(failing, s -> check.apply(s).isPresent());
 * System.out.println(r.shrunk().describe() + "\n" + r.steps());
 * }</pre>
 *
 * <p>Immutable. The predicate should be deterministic; it is called with candidates only, never
 * with the scenario passed in (assumed to fail).
 */
public final class Shrinker {
    /** Predicate calls allowed by default. */
    public static final int DEFAULT_MAX_ATTEMPTS = 200;

    private final int maxAttempts;
    private final Consumer<String> listener;

    private Shrinker(int maxAttempts, Consumer<String> listener) {
        this.maxAttempts = maxAttempts;
        this.listener = listener;
    }

    /** A shrinker with {@value #DEFAULT_MAX_ATTEMPTS} attempts and no listener. */
    public static Shrinker create() {
        return new Shrinker(DEFAULT_MAX_ATTEMPTS, step -> {});
    }

    /** This shrinker with a budget of {@code attempts} predicate calls ({@code >= 0}). */
    public Shrinker maxAttempts(int attempts) {
        if (attempts < 0) {
            throw new IllegalArgumentException("maxAttempts(" + attempts + ") must not be negative");
        }
        return new Shrinker(attempts, listener);
    }

    /** This shrinker, telling {@code stepListener} each reduction it keeps (e.g. for progress logs). */
    public Shrinker onStep(Consumer<String> stepListener) {
        return new Shrinker(maxAttempts, Objects.requireNonNull(stepListener, "stepListener must not be null"));
    }

    /** The budget of predicate calls. */
    public int maxAttempts() {
        return maxAttempts;
    }

    /**
     * Shrinks {@code failing}.
     *
     * @param failing    a scenario for which {@code stillFails} is true
     * @param stillFails true when a candidate still shows the failure
     * @return the smallest failing scenario found, with the attempts used and the reductions kept
     */
    public ShrinkResult shrink(GenScenario failing, Predicate<GenScenario> stillFails) {
        Objects.requireNonNull(failing, "failing must not be null");
        Objects.requireNonNull(stillFails, "stillFails must not be null");
        GenScenario current = failing;
        Set<GenScenario> tried = new HashSet<>();
        tried.add(failing);
        List<String> kept = new ArrayList<>();
        int attempts = 0;
        boolean improved = true;
        while (improved) {
            improved = false;
            for (Candidate c : candidates(current)) {
                if (!tried.add(c.scenario())) {
                    continue;
                }
                if (attempts >= maxAttempts) {
                    return new ShrinkResult(failing, current, attempts, kept, true);
                }
                attempts++;
                if (stillFails.test(c.scenario())) {
                    current = c.scenario();
                    kept.add(c.description());
                    listener.accept(c.description());
                    improved = true;
                    break;
                }
            }
        }
        return new ShrinkResult(failing, current, attempts, kept, false);
    }

    private record Candidate(String description, GenScenario scenario) {}

    /** Valid reductions of {@code s}, biggest first. */
    private static List<Candidate> candidates(GenScenario s) {
        Candidates out = new Candidates(s);
        dropStepRuns(out);
        dropStopStartPairs(out);
        dropKeys(out);
        out.add("dropped all ticks", s.steps().stream().filter(st -> !StepParts.is(st, Kind.TICK)).toList());
        out.add("dropped all stops and starts", s.steps().stream()
                .filter(st -> !StepParts.is(st, Kind.STOP) && !StepParts.is(st, Kind.START)).toList());
        fewerPartitions(out);
        zeroTriggerInterval(out);
        dropEvents(out);
        mergeRows(out);
        clearInputTimes(out);
        renameKeys(out);
        shiftEventTimes(out);
        moveEventTimes(out);
        lowerVariants(out);
        closeProcessingGaps(out);
        return out.list;
    }

    private static void dropStepRuns(Candidates out) {
        int n = out.steps().size();
        for (int size = Math.max(1, n / 2); n > 0 && size >= 1; size = size == 1 ? 0 : Math.max(1, size / 2)) {
            for (int from = 0; from < n; from += size) {
                int to = Math.min(n, from + size);
                List<Step<GenEvent>> steps = out.steps();
                String what = to - from == 1 ? "dropped step " + (from + 1) + " (" + kind(steps.get(from)) + ")"
                        : "dropped steps " + (from + 1) + "-" + to;
                steps.subList(from, to).clear();
                out.add(what, steps);
            }
        }
    }

    /** Each stop with the start after it (the steps between stay, now while the query runs). */
    private static void dropStopStartPairs(Candidates out) {
        List<Step<GenEvent>> original = out.steps();
        for (int i = 0; i < original.size(); i++) {
            if (StepParts.is(original.get(i), Kind.STOP)) {
                int j = i + 1;
                while (j < original.size() && !StepParts.is(original.get(j), Kind.START)) {
                    j++;
                }
                List<Step<GenEvent>> steps = out.steps();
                if (j < steps.size()) {
                    steps.remove(j);
                }
                steps.remove(i);
                out.add("dropped the stop at step " + (i + 1) + (j < original.size() ? " and its start at step " + (j + 1)
                        : ""), steps);
            }
        }
    }

    private static String kind(Step<GenEvent> step) {
        StepParts<GenEvent> parts = StepParts.of(step);
        return switch (parts.kind()) {
            case INPUT -> "input of " + count(parts.rows().size());
            case ADD -> "add of " + count(parts.rows().size());
            case TICK -> "tick to " + parts.time();
            case STOP -> "stop";
            case START -> "start";
        };
    }

    private static String count(int n) {
        return n + (n == 1 ? " event" : " events");
    }

    private static void fewerPartitions(Candidates out) {
        int n = out.scenario.shufflePartitions().orElse(1);
        for (int fewer : new int[] {1, n - 1}) {
            if (fewer >= 1 && fewer < n) {
                out.addScenario("shuffle partitions " + n + " -> " + fewer, () -> out.scenario.withShufflePartitions(fewer));
            }
        }
    }

    private static void zeroTriggerInterval(Candidates out) {
        out.scenario.triggerInterval().filter(d -> !d.isZero()).ifPresent(d -> out.addScenario(
                "trigger interval " + Times.span(d.toMillis()) + " -> 0",
                () -> out.scenario.withTriggerInterval(Duration.ZERO)));
    }

    private static void dropKeys(Candidates out) {
        for (String key : keys(out.scenario)) {
            List<Step<GenEvent>> steps = out.mapEvents(e -> e.key().equals(key) ? null : e);
            out.add("dropped all events of key " + key, steps);
        }
    }

    private static Set<String> keys(GenScenario s) {
        Set<String> keys = new LinkedHashSet<>();
        s.steps().forEach(st -> GenScenario.events(st).forEach(e -> keys.add(e.key())));
        return keys;
    }

    private static void dropEvents(Candidates out) {
        out.forEachEvent((step, index, e) -> {
            List<Step<GenEvent>> steps = out.steps();
            List<GenEvent> events = new ArrayList<>(GenScenario.events(steps.get(step)));
            events.remove(index);
            steps.set(step, withEvents(steps.get(step), events));
            out.add("dropped event " + out.name(e) + " from step " + (step + 1), steps);
        });
    }

    /** {@code step} (an input or an add) with {@code events} instead of its own. */
    private static Step<GenEvent> withEvents(Step<GenEvent> step, List<GenEvent> events) {
        return StepParts.of(step).withRows(events);
    }

    /** Two adjacent inputs become one input (at the first's time); two adjacent adds one add. */
    private static void mergeRows(Candidates out) {
        List<Step<GenEvent>> original = out.steps();
        for (int i = 0; i + 1 < original.size(); i++) {
            Step<GenEvent> a = original.get(i);
            Kind kind = StepParts.of(a).kind();
            boolean inputs = kind == Kind.INPUT;
            if ((inputs || kind == Kind.ADD) && StepParts.is(original.get(i + 1), kind)) {
                Step<GenEvent> b = original.get(i + 1);
                List<GenEvent> events = new ArrayList<>(GenScenario.events(a));
                events.addAll(GenScenario.events(b));
                List<Step<GenEvent>> steps = out.steps();
                steps.set(i, withEvents(a, events));
                steps.remove(i + 1);
                out.add("merged " + (inputs ? "input" : "add") + " steps " + (i + 1) + " and " + (i + 2), steps);
            }
        }
    }

    private static void clearInputTimes(Candidates out) {
        if (Times.isProcessingTime(out.scenario.timeMode())) {
            return;
        }
        List<Step<GenEvent>> original = out.steps();
        for (int i = 0; i < original.size(); i++) {
            StepParts<GenEvent> parts = StepParts.of(original.get(i));
            if (parts.kind() == Kind.INPUT && parts.time() != null) {
                List<Step<GenEvent>> steps = out.steps();
                steps.set(i, parts.atTime(null));
                out.add("input step " + (i + 1) + " runs at the current processing time", steps);
            }
        }
    }

    private static void renameKeys(Candidates out) {
        TreeSet<String> keys = new TreeSet<>(keys(out.scenario));
        if (keys.size() < 2) {
            return;
        }
        String smallest = keys.first();
        for (String key : keys.tailSet(smallest, false)) {
            out.add("renamed key " + key + " to " + smallest, out.mapEvents(e -> e.key().equals(key) ? e.withKey(smallest) : e));
        }
    }

    private static void shiftEventTimes(Candidates out) {
        long base = out.scenario.eventTimeBase().toEpochMilli();
        long min = out.minEventTime();
        if (min == Long.MAX_VALUE || min <= base) {
            return;
        }
        for (long delta : new long[] {min - base, (min - base) / 2}) {
            if (delta > 0) {
                out.add("shifted all event times " + Times.span(delta) + " earlier",
                        out.mapEvents(e -> e.withEventTimeMs(e.eventTimeMs() - delta)));
            }
        }
    }

    private static void moveEventTimes(Candidates out) {
        long min = out.minEventTime();
        long[] previous = {Long.MIN_VALUE};
        out.forEachEvent((step, index, e) -> {
            long t = e.eventTimeMs();
            if (previous[0] != Long.MIN_VALUE && previous[0] != t) {
                out.addEventEdit(step, index, e.withEventTimeMs(previous[0]), "moved to the previous event's time");
            }
            long half = min + (t - min) / 2;
            if (half != t && half != min) {
                out.addEventEdit(step, index, e.withEventTimeMs(half), "moved halfway to the smallest event time");
            }
            if (min != t) {
                out.addEventEdit(step, index, e.withEventTimeMs(min), "moved to the smallest event time");
            }
            previous[0] = t;
        });
    }

    private static void lowerVariants(Candidates out) {
        out.forEachEvent((step, index, e) -> {
            if (e.variant() > 0) {
                out.addEventEdit(step, index, e.withVariant(0), "variant set to 0");
            }
            if (e.variant() > 1) {
                out.addEventEdit(step, index, e.withVariant(e.variant() - 1), "variant lowered by 1");
            }
        });
    }

    private static void closeProcessingGaps(Candidates out) {
        List<Step<GenEvent>> original = out.steps();
        long minGap = Times.isProcessingTime(out.scenario.timeMode()) ? 1 : 0;
        long now = 0;
        for (int i = 0; i < original.size(); i++) {
            Instant t = StepParts.timeOf(original.get(i));
            if (t == null) {
                continue;
            }
            long gap = t.toEpochMilli() - now;
            for (long delta : new long[] {gap - minGap, (gap - minGap) / 2}) {
                if (delta > 0) {
                    out.add("moved step " + (i + 1) + " and later steps " + Times.span(delta) + " earlier in processing time",
                            shiftFrom(original, i, delta));
                }
            }
            now = t.toEpochMilli();
        }
    }

    private static List<Step<GenEvent>> shiftFrom(List<Step<GenEvent>> steps, int from, long delta) {
        List<Step<GenEvent>> out = new ArrayList<>(steps);
        for (int i = from; i < out.size(); i++) {
            StepParts<GenEvent> s = StepParts.of(out.get(i));
            if (s.time() != null) {
                out.set(i, s.atTime(s.time().minusMillis(delta)));
            }
        }
        return out;
    }

    /** Collects the valid candidates that differ from the scenario being shrunk. */
    private static final class Candidates {
        final GenScenario scenario;
        final List<Candidate> list = new ArrayList<>();

        Candidates(GenScenario scenario) {
            this.scenario = scenario;
        }

        /** A fresh, mutable copy of the scenario's steps. */
        List<Step<GenEvent>> steps() {
            return new ArrayList<>(scenario.steps());
        }

        void add(String description, List<Step<GenEvent>> steps) {
            List<Step<GenEvent>> tidy = withoutIdleRestarts(steps);
            long intervalMs = scenario.triggerInterval().map(Duration::toMillis).orElse(0L);
            if (GenScenario.problem(scenario.timeMode(), intervalMs, tidy) != null || tidy.equals(scenario.steps())) {
                return;
            }
            list.add(new Candidate(description, scenario.withSteps(tidy)));
        }

        /** A candidate with other settings; skipped when its steps do not suit them. */
        void addScenario(String description, java.util.function.Supplier<GenScenario> candidate) {
            GenScenario c;
            try {
                c = candidate.get();
            } catch (IllegalArgumentException invalid) {
                return;
            }
            if (!c.equals(scenario)) {
                list.add(new Candidate(description, c));
            }
        }

        /**
         * {@code steps} without a stop that comes first or right after a start, together with its
         * start (the steps between them stay): the generator never makes those.
         */
        private static List<Step<GenEvent>> withoutIdleRestarts(List<Step<GenEvent>> steps) {
            List<Step<GenEvent>> out = new ArrayList<>(steps.size());
            boolean dropStart = false;
            for (Step<GenEvent> s : steps) {
                if (StepParts.is(s, Kind.STOP) && (out.isEmpty() || StepParts.is(out.get(out.size() - 1), Kind.START))) {
                    dropStart = true;
                } else if (StepParts.is(s, Kind.START) && dropStart) {
                    dropStart = false;
                } else {
                    out.add(s);
                }
            }
            return out;
        }

        void addEventEdit(int step, int index, GenEvent replacement, String what) {
            List<Step<GenEvent>> steps = steps();
            List<GenEvent> events = new ArrayList<>(GenScenario.events(steps.get(step)));
            GenEvent before = events.set(index, replacement);
            steps.set(step, withEvents(steps.get(step), events));
            add("event " + name(before) + " in step " + (step + 1) + ": " + what + " (now " + name(replacement) + ")", steps);
        }

        String name(GenEvent e) {
            return e.key() + "@base" + Times.offset(e.eventTimeMs() - scenario.eventTimeBase().toEpochMilli())
                    + (e.variant() == 0 ? "" : "/v" + e.variant());
        }

        /** The steps with every event mapped; a null result drops the event. */
        List<Step<GenEvent>> mapEvents(UnaryOperator<GenEvent> f) {
            List<Step<GenEvent>> steps = steps();
            for (int i = 0; i < steps.size(); i++) {
                Step<GenEvent> s = steps.get(i);
                Kind kind = StepParts.of(s).kind();
                if (kind == Kind.INPUT || kind == Kind.ADD) {
                    List<GenEvent> events = new ArrayList<>();
                    for (GenEvent e : GenScenario.events(s)) {
                        GenEvent mapped = f.apply(e);
                        if (mapped != null) {
                            events.add(mapped);
                        }
                    }
                    steps.set(i, withEvents(s, events));
                }
            }
            return steps;
        }

        long minEventTime() {
            long[] min = {Long.MAX_VALUE};
            forEachEvent((step, index, e) -> min[0] = Math.min(min[0], e.eventTimeMs()));
            return min[0];
        }

        void forEachEvent(EventVisitor visitor) {
            List<Step<GenEvent>> steps = scenario.steps();
            for (int i = 0; i < steps.size(); i++) {
                List<GenEvent> events = GenScenario.events(steps.get(i));
                for (int j = 0; j < events.size(); j++) {
                    visitor.visit(i, j, events.get(j));
                }
            }
        }
    }

    @FunctionalInterface
    private interface EventVisitor {
        void visit(int step, int index, GenEvent event);
    }
}
