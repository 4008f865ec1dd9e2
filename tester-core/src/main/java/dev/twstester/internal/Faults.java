package dev.twstester.internal;

/**
 * Internal, test-only: deliberate deviations from Spark that a test can switch on to prove the
 * differential checks catch a wrong simulator. Never set these outside tests; {@link #reset()}
 * switches everything off.
 */
public final class Faults {
    /** When true, the simulator's late-row filter uses the current batch's watermark instead of the previous one. */
    public static volatile boolean lateFilterUsesCurrentWatermark;

    private Faults() {}

    public static void reset() {
        lateFilterUsesCurrentWatermark = false;
    }
}
