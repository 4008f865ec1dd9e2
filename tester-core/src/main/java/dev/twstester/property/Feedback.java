package dev.twstester.property;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
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
    /** Scenarios drawn for each plain try, of which the one with the most unseen static features runs. */
    private static final int CANDIDATES = 3;
    /** Mixed into a try seed for the feedback's own choices. */
    private static final long SALT = 0x4665_6564_6261_636BL;
    /** Kept tries that reach the target; past this count a shorter one takes the place of the longest. */
    private static final int MAX_TARGET_KEEPERS = 16;

    private final ScenarioGenerator generator;
    private final LongFunction<GenScenario> fresh;
    private final Steering steering;
    private final List<Entry> corpus = new ArrayList<>();
    /** The kept tries that reached the target (also in {@link #corpus}). */
    private final List<Entry> reaching = new ArrayList<>();
    private final Set<String> seen = new HashSet<>();
    private final Set<Integer> derived = new HashSet<>();
    /** The static features of the plain tries so far ({@link StaticFeatures}). */
    private final Set<StaticFeatures.Feature> drawnFeatures = new HashSet<>();
    /** Steps of the plain generated tries so far, for the size a kept scenario may have. */
    private long freshSteps;
    private int freshTries;

    /** The run of the last derived try's parent, offered to that try when it only adds steps ({@link #takeOffered}). */
    private LiveRun<?, ?, ?> offered;

    /** A kept try: its scenario, how much it covered, whether it reached the target, its pending timers. */
    private record Entry(GenScenario scenario, int signals, boolean reachesTarget, List<Long> pendingTimers) {}

    /** The runs of kept tries that no derived try has taken yet ({@link LiveRun}), by entry. */
    private final Map<Entry, LiveRun<?, ?, ?>> live = new IdentityHashMap<>();

    Feedback(ScenarioGenerator generator, LongFunction<GenScenario> fresh, Steering steering) {
        this.generator = generator;
        this.fresh = fresh;
        this.steering = steering;
    }

    /** The scenario of try {@code index}, whose try seed is {@code seed}. */
    GenScenario next(int index, long seed) {
        offered = null;
        SplittableRandom random = new SplittableRandom(seed ^ SALT);
        if (corpus.isEmpty() || index < WARM_UP || random.nextDouble() < FRESH_CHANCE) {
            GenScenario plain = freshest(index, seed, random);
            freshSteps += plain.steps().size();
            freshTries++;
            return plain;
        }
        derived.add(index);
        Entry parent = pick(random);
        GenScenario child = derive(parent, random);
        if (live.containsKey(parent) && child.extendsScenario(parent.scenario())) {
            offered = live.remove(parent);         // the child goes on from the parent's run; the run is the child's now
        }
        return child;
    }

    /**
     * The parent's run for the try {@link #next} just gave, when that try only adds steps to its
     * parent's scenario (once; null otherwise).
     */
    LiveRun<?, ?, ?> takeOffered() {
        LiveRun<?, ?, ?> taken = offered;
        offered = null;
        return taken;
    }

    /**
     * A child of {@code parent}: steps added at its end when its run is at hand and it is no longer
     * than a plain try (the child then goes on from that run); else one event changed in place, or
     * steps dropped and edits made.
     */
    private GenScenario derive(Entry parent, SplittableRandom random) {
        GenScenario child = parent.scenario();
        boolean longer = freshTries > 0 && child.steps().size() * freshTries > freshSteps;
        if (!longer && live.containsKey(parent)) {
            return extend(child, parent.pendingTimers(), random);   // goes on from the parent's run: only the new steps cost
        }
        if (parent.reachesTarget() && (longer || random.nextBoolean())) {
            // near the target at its size: one event changed, and one step fewer when longer than a plain try
            return rewrite(longer ? Mutations.dropSteps(child, random) : child, random);
        }
        if (longer) {
            child = Mutations.dropSteps(Mutations.dropSteps(child, random), random);   // two steps fewer first
        }
        int edits = 1 + random.nextInt(2);
        for (int i = 0; i < edits; i++) {
            child = edit(child, i == 0 ? parent.pendingTimers() : List.of(), random);
        }
        return child;
    }

    /**
     * The plain scenario of a try: of {@link #CANDIDATES} scenarios drawn from its seed (the first is
     * the one uniform generation would run), the one with the most static features no earlier plain
     * try of this run had; the first on a tie. Costs the drawing only: none of them is run. Another
     * than the first depends on the tries before it, so it counts as derived (rerun by base seed).
     */
    private GenScenario freshest(int index, long seed, SplittableRandom random) {
        GenScenario best = fresh.apply(seed);
        Set<StaticFeatures.Feature> bestFeatures = StaticFeatures.of(best, generator.interestingMs());
        long bestNew = unseen(bestFeatures);
        for (int i = 1; i < CANDIDATES; i++) {
            GenScenario candidate = fresh.apply(random.nextLong());
            Set<StaticFeatures.Feature> features = StaticFeatures.of(candidate, generator.interestingMs());
            long candidateNew = unseen(features);
            if (candidateNew > bestNew) {
                derived.add(index);
                best = candidate;
                bestFeatures = features;
                bestNew = candidateNew;
            }
        }
        drawnFeatures.addAll(bestFeatures);
        return best;
    }

    private long unseen(Set<StaticFeatures.Feature> features) {
        long n = 0;
        for (StaticFeatures.Feature f : features) {
            n += drawnFeatures.contains(f) ? 0 : 1;
        }
        return n;
    }

    /** Whether try {@code index} depends on the tries before it (else it is generated from its own seed alone). */
    boolean derived(int index) {
        return derived.contains(index);
    }

    /**
     * Keeps {@code scenario} when its try reached coverage no earlier try reached, or the target;
     * once enough tries reached the target, a shorter one that reaches it takes the place of the
     * longest kept one (AFL's preference for small entries).
     */
    void observe(GenScenario scenario, PropertyTry attempt) {
        Set<String> signals = attempt.signals();      // the labels, the features and the handler sequences
        boolean isNew = seen.addAll(signals);
        String target = steering.target();
        boolean reaches = target != null && signals.contains(target);
        if (scenario.steps().size() > maxKeptSteps() && !reaches) {
            return;                      // kept scenarios stay near the generator's size: a try costs about as much
        }
        if (isNew || reaches && reaching.size() < MAX_TARGET_KEEPERS) {
            Entry entry = keep(new Entry(scenario, signals.size(), reaches, attempt.pendingTimers()), attempt);
            corpus.add(entry);
            if (reaches) {
                reaching.add(entry);
            }
        } else if (reaches) {
            replaceLongestReaching(new Entry(scenario, signals.size(), true, attempt.pendingTimers()), attempt);
        }
    }

    /** {@code entry}, with its try's run kept for a derived try to go on from. */
    private Entry keep(Entry entry, PropertyTry attempt) {
        if (attempt.live() != null) {
            live.put(entry, attempt.live());
        }
        return entry;
    }

    private void replaceLongestReaching(Entry entry, PropertyTry attempt) {
        int longest = 0;
        for (int i = 1; i < reaching.size(); i++) {
            if (reaching.get(i).scenario().steps().size() > reaching.get(longest).scenario().steps().size()) {
                longest = i;
            }
        }
        Entry old = reaching.get(longest);
        if (entry.scenario().steps().size() < old.scenario().steps().size()) {
            live.remove(old);
            reaching.set(longest, keep(entry, attempt));
            for (int i = 0; i < corpus.size(); i++) {
                if (corpus.get(i) == old) {
                    corpus.set(i, entry);
                }
            }
        }
    }

    /** Twice the plain tries' mean step count (at least 6 steps). */
    private long maxKeptSteps() {
        return freshTries == 0 ? Long.MAX_VALUE : Math.max(6, 2 * freshSteps / freshTries);
    }

    /** Half the time with a target: the shorter of two kept tries that reached it; else the richest of three kept tries. */
    private Entry pick(SplittableRandom random) {
        if (steering.target() != null && random.nextBoolean() && !reaching.isEmpty()) {
            Entry a = reaching.get(random.nextInt(reaching.size()));
            Entry b = reaching.get(random.nextInt(reaching.size()));
            return a.scenario().steps().size() <= b.scenario().steps().size() ? a : b;
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

    /** One edit of {@code s} that only adds steps at its end; {@code timers} are the timers its run left pending. */
    private GenScenario extend(GenScenario s, List<Long> timers, SplittableRandom random) {
        int choice = random.nextInt(timers.isEmpty() ? 4 : 6);
        return switch (choice) {
            case 0 -> repeatKey(s, random);
            case 1 -> acrossDuration(s, random);
            case 2 -> lateRow(s, random);
            case 3 -> gap(s, random);
            default -> pastTimer(s, timers.get(random.nextInt(timers.size())), random);
        };
    }

    /**
     * One event of {@code s} changed in place, so the scenario keeps its size: given the key of
     * another event, the other variant, or a time near another event's or across an interesting
     * duration from it.
     */
    private GenScenario rewrite(GenScenario s, SplittableRandom random) {
        List<GenEvent> events = Mutations.events(s);
        if (events.isEmpty()) {
            return s;
        }
        GenEvent other = events.get(random.nextInt(events.size()));
        int nth = random.nextInt(events.size());
        long[] durations = generator.interestingMs();
        return Mutations.mapEvent(s, nth, e -> switch (random.nextInt(4)) {
            case 0 -> e.withKey(other.key());
            case 1 -> e.withVariant(variant(random));
            case 2 -> e.withEventTimeMs(Math.max(0, other.eventTimeMs() + random.nextLong(generator.spreadMs() / 10 + 1)));
            default -> e.withEventTimeMs(Math.max(0, other.eventTimeMs() + random.nextInt(3) - 1
                    + (durations.length == 0 ? generator.spreadMs() : durations[random.nextInt(durations.length)])));
        });
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
        int variant = variant(random);
        return new GenEvent(keys.get(random.nextInt(keys.size())), Math.max(0, time), variant);
    }

    /** A variant drawn by the {@code weights(...)} when given, else uniformly. */
    private int variant(SplittableRandom random) {
        return steering.weights() != null ? steering.draw(random) : random.nextInt(generator.variantCount());
    }
}
