package dev.twstester.internal;

import java.lang.reflect.Field;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

import dev.twstester.sim.TwsSimulator;

/**
 * Internal, not API: may change in any release.
 *
 * <p>Deliberate deviations from Spark that twstester's own tests build into one simulator, to prove
 * that the checks against live Spark catch a wrong simulator:
 * <pre>{@code
 * TwsSimulator<K, I, O> wrong = Fault.inject(TwsSimulator.builder(query), Fault.LATE_FILTER_USES_CURRENT_WATERMARK).build();
 * }</pre>
 * A fault belongs to the simulator built from that builder (its restarts included) and to no other:
 * simulators built any other way in the same JVM behave as Spark does. The builder has no public
 * option for faults, so that no user code switches one on by accident; {@link #inject} sets its
 * private field.
 */
public enum Fault {
    /** The late-row filter uses the current batch's watermark instead of the previous batch's. */
    LATE_FILTER_USES_CURRENT_WATERMARK;

    /** The private field of {@link TwsSimulator.Builder} that holds a simulator's faults. */
    private static final String BUILDER_FIELD = "faults";

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
        try {
            Field field = TwsSimulator.Builder.class.getDeclaredField(BUILDER_FIELD);
            field.setAccessible(true);
            field.set(builder, Collections.unmodifiableSet(set));
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot inject faults: TwsSimulator.Builder needs a private field '"
                    + BUILDER_FIELD + "' of type Set<Fault> that it passes to the engine; restore it or change "
                    + "Fault.inject with it (" + e + ")", e);
        }
        return builder;
    }
}
