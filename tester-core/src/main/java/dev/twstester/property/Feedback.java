package dev.twstester.property;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.LongFunction;

/**
 * The feedback-directed generation of one property run: a corpus of the tries that reached new
 * coverage, and new tries derived from them. Everything it draws comes from the try seeds, and
 * what it keeps from the tries' coverage, so the same base seed (and a deterministic check) gives
 * the same tries in the same order.
 */
final class Feedback {
    /** Tries before the first derived one: plain generated scenarios, to seed the corpus. */
    private static final int WARM_UP = 8;
    /** Share of later tries that are plain generated scenarios all the same. */
    private static final double FRESH_CHANCE = 0.15;
    /** Mixed into a try seed for the feedback's own choices. */
    private static final long SALT = 0x4665_6564_6261_636BL;
    /** Kept scenarios that reach the target, beyond those that brought new coverage. */
    private static final int MAX_TARGET_KEEPERS = 16;

    private final ScenarioGenerator generator;
    private final LongFunction<GenScenario> fresh;
    private final Steering steering;
    private final List<Entry> corpus = new ArrayList<>();
    private final Set<String> seen = new HashSet<>();
    private final Set<Integer> derived = new HashSet<>();
    private int targetKeepers;
    /** Steps of the plain generated tries so far, for the size a kept scenario may have. */
    private long freshSteps;
    private int freshTries;

    /** A kept try: its scenario, how much it covered, whether it reached the target, its pending timers. */
    private record Entry(GenScenario scenario, int signals, boolean reachesTarget, List<Long> pendingTimers) {}

    Feedback(ScenarioGenerator generator, LongFunction<GenScenario> fresh, Steering steering) {
        this.generator = generator;
        this.fresh = fresh;
        this.steering = steering;
    }

    /** The scenario of try {@code index}, whose try seed is {@code seed}. */
    GenScenario next(int index, long seed) {
        SplittableRandom random = new SplittableRandom(seed ^ SALT);
        if (corpus.isEmpty() || index < WARM_UP || random.nextDouble() < FRESH_CHANCE) {
            GenScenario plain = fresh.apply(seed);
            freshSteps += plain.steps().size();
            freshTries++;
            return plain;
        }
        derived.add(index);
        Entry parent = pick(random);
        GenScenario child = parent.scenario();
        if (freshTries > 0 && child.steps().size() * freshTries > freshSteps) {
            child = Mutations.dropSteps(child, random);   // longer than a plain try: one step fewer first
        }
        int edits = 1 + random.nextInt(2);
        for (int i = 0; i < edits; i++) {
            child = edit(child, i == 0 ? parent.pendingTimers() : List.of(), random);
        }
        return child;
    }

    /** Whether try {@code index} was derived from the corpus (else generated from its own seed). */
    boolean derived(int index) {
        return derived.contains(index);
    }

    /** Keeps {@code scenario} when its try reached coverage no earlier try reached, or the target. */
    void observe(GenScenario scenario, PropertyTry attempt) {
        Set<String> signals = attempt.signals();
        boolean isNew = !seen.containsAll(signals);
        seen.addAll(signals);
        String target = steering.target();
        boolean reaches = target != null && (attempt.labels().contains(target) || attempt.features().contains(target));
        if (scenario.steps().size() > maxKeptSteps()) {
            return;                      // kept scenarios stay near the generator's size: a try costs about as much
        }
        if (isNew || reaches && targetKeepers++ < MAX_TARGET_KEEPERS) {
            corpus.add(new Entry(scenario, signals.size(), reaches, attempt.pendingTimers()));
        }
    }

    /** Twice the plain tries' mean step count (at least 6 steps). */
    private long maxKeptSteps() {
        return freshTries == 0 ? Long.MAX_VALUE : Math.max(6, 2 * freshSteps / freshTries);
    }

    /** Half the time with a target: the shorter of two kept tries that reached it; else the richest of three kept tries. */
    private Entry pick(SplittableRandom random) {
        if (steering.target() != null && random.nextBoolean()) {
            List<Entry> reaching = corpus.stream().filter(Entry::reachesTarget).toList();
            if (!reaching.isEmpty()) {
                Entry a = reaching.get(random.nextInt(reaching.size()));
                Entry b = reaching.get(random.nextInt(reaching.size()));
                return a.scenario().steps().size() <= b.scenario().steps().size() ? a : b;
            }
        }
        Entry best = null;
        for (int i = 0; i < 3; i++) {
            Entry e = corpus.get(random.nextInt(corpus.size()));
            if (best == null || score(e) > score(best)
                    || score(e) == score(best) && e.scenario().steps().size() < best.scenario().steps().size()) {
                best = e;
            }
        }
        return best;
    }

    /** Richer coverage scores higher, and so do pending timers: one step from firing. */
    private static int score(Entry e) {
        return e.signals() + (e.pendingTimers().isEmpty() ? 0 : 4) + (e.reachesTarget() ? 4 : 0);
    }

    /** One edit of {@code s}, chosen at random; {@code timers} are the timers its run left pending. */
    private GenScenario edit(GenScenario s, List<Long> timers, SplittableRandom random) {
        int choice = random.nextInt(timers.isEmpty() ? 9 : 13);
        return switch (choice) {
            case 0, 1 -> repeatKey(s, random);
            case 2 -> acrossDuration(s, random);
            case 3 -> Mutations.splice(s, cut(s, random), fresh.apply(random.nextLong()), 0, random.nextBoolean());
            case 4 -> splice(s, random);
            case 5 -> lateRow(s, random);
            case 6 -> s.restartCount() > 0 ? gap(s, random) : Mutations.insertRestart(s, random);
            case 7 -> gap(s, random);
            case 8 -> Mutations.splice(s, s.steps().size(), fresh.apply(random.nextLong()), 0, true);
            default -> pastTimer(s, timers.get(random.nextInt(timers.size())), random);
        };
    }

    /** Moves the clock or the watermark onto, 1 ms before or 1 ms after a pending timer's expiry. */
    private GenScenario pastTimer(GenScenario s, long expiry, SplittableRandom random) {
        long delta = random.nextInt(5) == 0 ? -1 : random.nextInt(2);
        if (Times.isProcessingTime(s.timeMode())) {
            return Mutations.appendTick(s, expiry + delta);
        }
        long delay = s.watermarkDelay().map(d -> d.toMillis()).orElse(0L);
        return Mutations.append(s, List.of(event(random, expiry + delay + delta)), 1_000);
    }

    /** Moves time across {@code earlier event + interesting duration} (or the spread when none is given). */
    private GenScenario acrossDuration(GenScenario s, SplittableRandom random) {
        List<GenEvent> events = Mutations.events(s);
        long[] durations = generator.interestingMs();
        long d = durations.length == 0 ? generator.spreadMs() : durations[random.nextInt(durations.length)];
        long delta = random.nextInt(3) - 1;
        if (Times.isProcessingTime(s.timeMode()) || events.isEmpty()) {
            return Mutations.appendTick(s, Mutations.now(s.steps()) + d + delta);
        }
        long from = events.get(random.nextInt(events.size())).eventTimeMs();
        long delay = s.watermarkDelay().map(x -> x.toMillis()).orElse(0L);
        return Mutations.append(s, List.of(event(random, from + d + delay + delta)), d);
    }

    /** One to three more events of an earlier event's key and variant, soon after the latest event. */
    private GenScenario repeatKey(GenScenario s, SplittableRandom random) {
        List<GenEvent> events = Mutations.events(s);
        if (events.isEmpty()) {
            return Mutations.append(s, List.of(event(random, s.eventTimeBase().toEpochMilli())), 1_000);
        }
        GenEvent like = events.get(random.nextInt(events.size()));
        long t = Mutations.maxEventTime(s.steps(), like.eventTimeMs());
        List<GenEvent> more = new ArrayList<>();
        int n = 1 + random.nextInt(3);
        for (int i = 0; i < n; i++) {
            t += random.nextLong(generator.spreadMs() / 10 + 1);
            more.add(new GenEvent(like.key(), t, like.variant()));
        }
        return Mutations.append(s, more, 1_000);
    }

    /** An event behind the watermark (late) when there is one, else at the start of event time. */
    private GenScenario lateRow(GenScenario s, SplittableRandom random) {
        long base = s.eventTimeBase().toEpochMilli();
        long max = Mutations.maxEventTime(s.steps(), base);
        long delay = s.watermarkDelay().map(d -> d.toMillis()).orElse(0L);
        long t = Math.max(0, max - delay - random.nextLong(generator.spreadMs() + 1));
        return Mutations.append(s, List.of(event(random, t)), 1_000);
    }

    /** A clock move past an interesting duration or an ordinary gap, with nothing to read. */
    private GenScenario gap(GenScenario s, SplittableRandom random) {
        long[] durations = generator.interestingMs();
        long d = durations.length > 0 && random.nextBoolean() ? durations[random.nextInt(durations.length)]
                : 1 + random.nextLong(generator.spreadMs());
        return Mutations.appendTick(s, Mutations.now(s.steps()) + d + random.nextInt(3) - 1);
    }

    /** This scenario's first steps, then the last steps of another kept one. */
    private GenScenario splice(GenScenario s, SplittableRandom random) {
        GenScenario other = corpus.get(random.nextInt(corpus.size())).scenario();
        if (other.steps().isEmpty()) {
            return s;
        }
        return Mutations.splice(s, cut(s, random), other, random.nextInt(other.steps().size()), random.nextBoolean());
    }

    private static int cut(GenScenario s, SplittableRandom random) {
        return 1 + random.nextInt(Math.max(1, s.steps().size()));
    }

    /** An event of a random key and variant (weighted when {@code weights} were given). */
    private GenEvent event(SplittableRandom random, long time) {
        List<String> keys = generator.keyList();
        int variant = steering.weights() != null ? steering.draw(random) : random.nextInt(generator.variantCount());
        return new GenEvent(keys.get(random.nextInt(keys.size())), Math.max(0, time), variant);
    }
}
