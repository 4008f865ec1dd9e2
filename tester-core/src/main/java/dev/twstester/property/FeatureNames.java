package dev.twstester.property;

import java.util.HashMap;
import java.util.Map;

/**
 * The feature names of one property run, each built once: every try's {@link CoverageRecorder}
 * gets the same string for the same feature, so a try's sets hash it once per run (a string keeps
 * its hash) and compare it by identity. Not thread-safe: one per property run, or per recorder.
 */
final class FeatureNames {
    /** A feature name's parts. */
    private record Name(int operator, String kind, String detail) {}

    private final Map<Name, String> names = new HashMap<>();
    private final Map<String, String> sequences = new HashMap<>();

    /** {@code [op N] }, {@code kind} and {@code detail}, as one feature name. */
    String name(int operator, String kind, String detail) {
        return names.computeIfAbsent(new Name(operator, kind, detail),
                n -> (operator == 0 ? "" : "[op " + operator + "] ") + kind + detail);
    }

    /** {@code sequence: } and a key's handler kinds, as one signal name. */
    String sequence(CharSequence kinds) {
        return sequences.computeIfAbsent(kinds.toString(), k -> "sequence: " + k);
    }
}
