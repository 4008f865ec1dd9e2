package dev.twstester.property;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import dev.twstester.Scenario.Step;

/**
 * What a generated scenario exercises, read from its steps without running it: which step kind
 * follows which, empty batches, the trigger interval, per key the variant that follows another and
 * how many events it has (up to 5), events apart by less than, exactly or more than each interesting
 * duration from their key's first event, rows at or behind the watermark, and the number of keys.
 * Key names and times are not features: two scenarios that differ only in them have the same set.
 * The feedback generation prefers, among plain scenarios it could run, the one with most features
 * no earlier plain try had.
 */
final class StaticFeatures {
    private StaticFeatures() {}

    /** One feature: its kind and up to two numbers (a step kind's ordinal, a variant, a count, a duration). */
    record Feature(String kind, long a, long b) {
        @Override
        public int hashCode() {       // the kinds are constants, so their hashes are cached: cheaper than the record's own
            return (kind.hashCode() * 31 + Long.hashCode(a)) * 31 + Long.hashCode(b);
        }
    }

    /** What the events so far had of one key: the last one's variant (-1 before the first), their count, the first one's time. */
    private static final class PerKey {
        private int lastVariant = -1;
        private int events;
        private final long firstTime;

        PerKey(long firstTime) {
            this.firstTime = firstTime;
        }
    }

    /** The features of {@code s}; {@code interesting} are the generator's interesting durations in ms. */
    static Set<Feature> of(GenScenario s, long[] interesting) {
        Set<Feature> f = new HashSet<>();
        Map<String, PerKey> perKey = new HashMap<>();
        int previous = -1;
        long delay = s.watermarkDelay().map(d -> d.toMillis()).orElse(-1L);
        long maxTime = Long.MIN_VALUE;
        s.triggerInterval().ifPresent(t -> f.add(new Feature("trigger", t.toMillis(), 0)));
        for (Step<GenEvent> step : s.steps()) {
            StepParts<GenEvent> parts = StepParts.of(step);
            f.add(new Feature("step", previous, parts.kind().ordinal()));
            previous = parts.kind().ordinal();
            if ((parts.kind() == StepParts.Kind.INPUT || parts.kind() == StepParts.Kind.ADD) && parts.rows().isEmpty()) {
                f.add(new Feature("empty", 0, 0));
            }
            long batchMax = maxTime;
            for (GenEvent e : parts.rows()) {
                PerKey k = perKey.computeIfAbsent(e.key(), x -> new PerKey(e.eventTimeMs()));
                f.add(new Feature("sequence", k.lastVariant, e.variant()));
                k.lastVariant = e.variant();
                k.events++;
                f.add(new Feature("count", Math.min(k.events, 5), 0));
                if (k.events > 1) {
                    for (long d : interesting) {
                        f.add(new Feature("gap", d, Long.signum(e.eventTimeMs() - k.firstTime - d)));
                    }
                }
                if (delay >= 0 && maxTime != Long.MIN_VALUE && e.eventTimeMs() <= maxTime - delay) {
                    f.add(new Feature("late", 0, 0));
                }
                batchMax = Math.max(batchMax, e.eventTimeMs());
            }
            maxTime = batchMax;
        }
        f.add(new Feature("keys", perKey.size(), 0));
        return f;
    }
}
