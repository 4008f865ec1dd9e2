package dev.twstester.cli;

import java.lang.reflect.Field;
import java.util.List;

import dev.twstester.sim.TwsSimulator;

/**
 * Lets a streaming replay drop the batches {@link TwsSimulator} keeps for {@link TwsSimulator#history()}
 * (every batch's input, outputs and timers), so that memory is bounded by the state and one batch.
 * {@code TwsSimulator} has no option for that yet: this clears its private {@code history} list. If
 * the field is not there (tester-core changed), nothing is dropped and the replay still runs, using
 * more memory; {@code SimulatorHistoryTest} fails in that case so that the change is noticed.
 */
final class SimulatorHistory {
    private static final Field HISTORY = historyField();

    private SimulatorHistory() {}

    private static Field historyField() {
        try {
            Field f = TwsSimulator.class.getDeclaredField("history");
            if (!List.class.isAssignableFrom(f.getType())) {
                return null;
            }
            f.setAccessible(true);
            return f;
        } catch (NoSuchFieldException | RuntimeException e) {
            return null;
        }
    }

    /** True if {@link #forget} can drop the simulator's history. */
    static boolean supported() {
        return HISTORY != null;
    }

    /** Drops the batches the simulator kept so far; true if it could. */
    static boolean forget(TwsSimulator<?, ?, ?> sim) {
        if (HISTORY == null) {
            return false;
        }
        try {
            ((List<?>) HISTORY.get(sim)).clear();
            return true;
        } catch (IllegalAccessException | RuntimeException e) {
            return false;
        }
    }
}
