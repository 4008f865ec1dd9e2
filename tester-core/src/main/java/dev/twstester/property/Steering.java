package dev.twstester.property;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * What a {@link Property} is told about coverage: the generation, the declared labels, the
 * {@code cover} minimums, the target and the variant weights. Immutable.
 */
record Steering(Generation generation, Set<String> labels, Map<String, Double> covers, String target,
        double[] weights) {
    static final Steering NONE = new Steering(null, Set.of(), Map.of(), null, null);
    /** Mixed into a try seed for its variant draws, so the weights leave the other choices as they were. */
    private static final long WEIGHT_SALT = 0x5765_6967_6874_7321L;

    Steering withGeneration(Generation g) {
        return new Steering(g, labels, covers, target, weights);
    }

    Steering withLabel(String label) {
        Set<String> all = new LinkedHashSet<>(labels);
        all.add(label);
        return new Steering(generation, all, covers, target, weights);
    }

    Steering withCover(String label, double percent) {
        Map<String, Double> all = new LinkedHashMap<>(covers);
        all.put(label, percent);
        return new Steering(generation, labels, all, target, weights).withLabel(label);
    }

    Steering withTarget(String label) {
        return new Steering(generation, labels, covers, label, weights).withLabel(label);
    }

    Steering withWeights(double[] perVariant) {
        double sum = 0;
        for (double w : perVariant) {
            if (w < 0 || Double.isNaN(w) || Double.isInfinite(w)) {
                throw new IllegalArgumentException("weights(...): " + w + " is not a weight; give one number >= 0 per variant");
            }
            sum += w;
        }
        if (perVariant.length == 0 || sum == 0) {
            throw new IllegalArgumentException("weights(...) needs one weight per variant, not all zero");
        }
        return new Steering(generation, labels, covers, target, perVariant.clone());
    }

    /** {@code scenario} with each event's variant drawn by the weights (from {@code seed}); as it is without weights. */
    GenScenario reweigh(GenScenario scenario, long seed) {
        if (weights == null) {
            return scenario;
        }
        SplittableRandom random = new SplittableRandom(seed ^ WEIGHT_SALT);
        return Mutations.mapEvents(scenario, e -> e.withVariant(draw(random)));
    }

    /** A variant index drawn by the weights. */
    int draw(SplittableRandom random) {
        double sum = 0;
        for (double w : weights) {
            sum += w;
        }
        double x = random.nextDouble() * sum;
        for (int i = 0; i < weights.length; i++) {
            x -= weights[i];
            if (x < 0) {
                return i;
            }
        }
        return weights.length - 1;
    }

    /** The labels shown first in the table: declared, in order. */
    List<String> declared() {
        return new ArrayList<>(labels);
    }
}
