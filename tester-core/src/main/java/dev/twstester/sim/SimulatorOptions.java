package dev.twstester.sim;

import java.util.Set;

/**
 * How a simulator was built ({@link TwsSimulator.Builder}), as its parts read it.
 *
 * @param fidelity     FULL or FAST
 * @param checkRetries every batch runs twice and must not differ
 * @param realTimeMode one {@code handleInputRows} call per input row
 * @param keepHistory  whether {@link TwsSimulator#history()} keeps every batch
 * @param sparkLine    whose rules apply where Spark's lines differ
 * @param faults       deliberate deviations from Spark, for twstester's own tests ({@link Fault})
 */
record SimulatorOptions(Fidelity fidelity, boolean checkRetries, boolean realTimeMode, boolean keepHistory,
        SparkLine sparkLine, Set<Fault> faults) {
    /** FULL, no retry check, one call per key, history kept, the Spark line on the class path, no faults. */
    static final SimulatorOptions DEFAULTS = new SimulatorOptions(Fidelity.FULL, false, false, true,
            SparkLine.onClassPath(), Set.of());

    SimulatorOptions withFidelity(Fidelity f) {
        return new SimulatorOptions(f, checkRetries, realTimeMode, keepHistory, sparkLine, faults);
    }

    SimulatorOptions withCheckRetries() {
        return new SimulatorOptions(fidelity, true, realTimeMode, keepHistory, sparkLine, faults);
    }

    SimulatorOptions withRealTimeMode() {
        return new SimulatorOptions(fidelity, checkRetries, true, keepHistory, sparkLine, faults);
    }

    SimulatorOptions withKeepHistory(boolean keep) {
        return new SimulatorOptions(fidelity, checkRetries, realTimeMode, keep, sparkLine, faults);
    }

    SimulatorOptions withSparkLine(SparkLine line) {
        return new SimulatorOptions(fidelity, checkRetries, realTimeMode, keepHistory, line, faults);
    }

    SimulatorOptions withFaults(Set<Fault> set) {
        return new SimulatorOptions(fidelity, checkRetries, realTimeMode, keepHistory, sparkLine, set);
    }

    /** Whether {@code fault} is on: a cheap test for the per-batch paths (most runs have none). */
    boolean hasFault(Fault fault) {
        return !faults.isEmpty() && faults.contains(fault);
    }
}
