package dev.twstester.property;

import java.io.PrintStream;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/** One property run: the tries in order, their coverage, the feedback corpus, and the shrinking of a failure. */
final class TryLoop {
    private final Property property;
    private final Shrinker shrinker;
    private final Steering steering;
    private final Generation generation;
    private final PrintStream out;
    private final Map<String, Integer> userCounts = new LinkedHashMap<>();
    private final Map<String, Integer> featureCounts = new HashMap<>();
    /** The feature names of this run's tries, each built once. */
    private final FeatureNames names = new FeatureNames();

    TryLoop(Property property, Shrinker shrinker, Steering steering, Generation generation, PrintStream out) {
        this.property = property;
        this.shrinker = shrinker;
        this.steering = steering;
        this.generation = generation;
        this.out = out;
        steering.declared().forEach(label -> userCounts.put(label, 0));
    }

    PropertyResult run(Function<PropertyTry, Optional<String>> check, List<Long> seeds, long base, boolean fixedSeed) {
        Feedback feedback = generation == Generation.FEEDBACK
                ? new Feedback(property.generator(), property::scenario, steering) : null;
        for (int i = 0; i < seeds.size(); i++) {
            GenScenario scenario = feedback == null ? property.scenario(seeds.get(i)) : feedback.next(i, seeds.get(i));
            PropertyTry attempt = new PropertyTry(i, scenario, names);
            if (feedback != null) {
                attempt.offer(feedback.takeOffered());
            }
            Optional<String> message = evaluate(check, attempt);
            count(attempt);
            if (feedback != null) {
                feedback.observe(scenario, attempt);
            }
            if (message.isPresent()) {
                PropertyResult.Failure failure = shrink(check, seeds.get(i), i, scenario, message.get());
                boolean derived = feedback != null && feedback.derived(i);
                return result(base, fixedSeed, seeds.subList(0, i + 1), failure, derived, null);
            }
        }
        return result(base, fixedSeed, seeds, null, false, coverProblem(table(seeds.size())));
    }

    private PropertyResult result(long base, boolean fixedSeed, List<Long> seeds, PropertyResult.Failure failure,
            boolean derived, String coverProblem) {
        CoverageTable table = table(seeds.size());
        if (!table.isEmpty()) {
            out.println("twstester property: " + table.format());
        }
        return new PropertyResult(base, fixedSeed, seeds, failure, table, derived, coverProblem);
    }

    private CoverageTable table(int tries) {
        return CoverageTable.of(tries, generation.name().toLowerCase(java.util.Locale.ROOT), userCounts, featureCounts);
    }

    private void count(PropertyTry attempt) {
        Set<String> labels = attempt.labels();
        Set<String> features = attempt.features();
        labels.forEach(l -> userCounts.merge(l, 1, Integer::sum));
        features.forEach(f -> {
            if (!labels.contains(f)) {
                featureCounts.merge(f, 1, Integer::sum);
            }
        });
        steering.declared().forEach(l -> {
            if (!labels.contains(l) && features.contains(l)) {
                userCounts.merge(l, 1, Integer::sum);     // a built-in feature named in cover(...) or target(...)
            }
        });
    }

    /** The first {@code cover} minimum the tries missed, as a message; null when all were met. */
    private String coverProblem(CoverageTable table) {
        for (Map.Entry<String, Double> c : steering.covers().entrySet()) {
            double percent = 100 * table.share(c.getKey());
            if (percent < c.getValue()) {
                return String.format(java.util.Locale.ROOT, "cover(\"%s\", %s): only %d of %d tries (%.1f%%) reached "
                        + "\"%s\"; widen the generator (keys, variants, eventTimeSpread, interestingDurations), "
                        + "steer it with target(\"%s\") and feedback(), or lower the minimum", c.getKey(),
                        c.getValue(), table.reached(c.getKey()), table.tries(), percent, c.getKey(), c.getKey());
            }
        }
        return null;
    }

    private PropertyResult.Failure shrink(Function<PropertyTry, Optional<String>> check, long seed, int tryIndex,
            GenScenario original, String message) {
        Map<GenScenario, String> messages = new HashMap<>();
        messages.put(original, message);
        ShrinkResult shrunk = shrinker.shrink(original, s -> {
            Optional<String> m = evaluate(check, new PropertyTry(-1, s, names));
            m.ifPresent(text -> messages.put(s, text));
            return m.isPresent();
        });
        return new PropertyResult.Failure(seed, tryIndex, original, message, shrunk.shrunk(),
                messages.get(shrunk.shrunk()), shrunk);
    }

    private static Optional<String> evaluate(Function<PropertyTry, Optional<String>> check, PropertyTry attempt) {
        Optional<String> result;
        try {
            result = check.apply(attempt);
        } catch (RuntimeException | AssertionError e) {
            return Optional.of("the check threw " + e);
        }
        if (result == null) {
            throw new IllegalStateException("the check returned null; return Optional.empty() when the scenario passes");
        }
        return result;
    }
}
