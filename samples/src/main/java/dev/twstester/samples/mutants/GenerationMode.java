package dev.twstester.samples.mutants;

import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

import dev.twstester.property.Property;

/**
 * How the benchmark's properties generate their tries: a setting applied to each
 * {@link Property} before its seed and tries are set. {@link #UNIFORM} leaves it as it is (today's
 * uniform random generation); another mode, such as feedback-directed generation, is one more
 * constant here and one more column in the table.
 *
 * <pre>{@code
 * GenerationMode partitions = new GenerationMode("1-3 partitions", p -> p.shufflePartitions(1, 3));
 * MutantBench.triesToFind(mutant, partitions, 1L, 200);   // the tries with that setting
 * }</pre>
 *
 * @param name  the column's name in the table
 * @param setup what the mode sets on a property
 */
public record GenerationMode(String name, UnaryOperator<Property> setup) {
    /** Uniform random generation: each try an independent scenario from its own seed. */
    public static final GenerationMode UNIFORM = new GenerationMode("uniform", Property::uniform);
    /**
     * Feedback-directed generation: tries derived from earlier tries that reached new coverage
     * ({@link Property#feedback()}).
     */
    public static final GenerationMode FEEDBACK = new GenerationMode("feedback", Property::feedback);

    public GenerationMode {
        Objects.requireNonNull(name, "name must not be null");
        Objects.requireNonNull(setup, "setup must not be null");
    }

    /** The mode called {@code name}: "uniform" or "feedback". */
    public static GenerationMode named(String name) {
        for (GenerationMode mode : List.of(UNIFORM, FEEDBACK)) {
            if (mode.name().equals(name)) {
                return mode;
            }
        }
        throw new IllegalArgumentException("unknown generation mode \"" + name + "\"; known: uniform, feedback");
    }
}
