package dev.twstester.sim;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;

/**
 * Deliberate deviations from Spark, for proving that a check against live Spark catches a wrong
 * simulator: twstester's own tests build one into a simulator and expect the live comparison
 * ({@code @TwsTest(compareWithSpark = true)}, {@code DifferentialProperty}) to fail. Not for
 * anything else: a simulator with a fault does not run as Spark does.
 * <pre>{@code
 * TwsSimulator<K, I, O> wrong = Fault.inject(TwsSimulator.builder(query), Fault.LATE_FILTER_USES_CURRENT_WATERMARK).build();
 * }</pre>
 * A fault belongs to the simulator built from that builder (its restarts included) and to no other:
 * simulators built any other way in the same JVM behave as Spark does. The builder has no option
 * for faults, so that no code switches one on by accident; {@code tester-junit}'s
 * {@code @SimulatorFaults} annotation is the other way in.
 */
public enum Fault {
    /** The late-row filter uses the current batch's watermark instead of the previous batch's. */
    LATE_FILTER_USES_CURRENT_WATERMARK;

    /**
     * Makes {@code builder} build simulators with exactly {@code faults} (none: a simulator as Spark
     * runs it); returns {@code builder}.
     */
    public static <K, I, O> TwsSimulator.Builder<K, I, O> inject(TwsSimulator.Builder<K, I, O> builder,
            Fault... faults) {
        Objects.requireNonNull(builder, "builder must not be null");
        EnumSet<Fault> set = EnumSet.noneOf(Fault.class);
        for (Fault f : Objects.requireNonNull(faults, "faults must not be null")) {
            set.add(Objects.requireNonNull(f, "faults must not contain null"));
        }
        builder.faults(Collections.unmodifiableSet(set));
        return builder;
    }
}
