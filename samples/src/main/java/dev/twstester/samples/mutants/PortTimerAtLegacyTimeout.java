package dev.twstester.samples.mutants;

import dev.twstester.samples.fraud.FraudStateProcessor;

/** Bug: the port's timer is at the legacy timeout itself, which fires one trigger earlier than the legacy timeout. */
class PortTimerAtLegacyTimeout extends FraudStateProcessor {
    private static final long serialVersionUID = 1L;
    static final String BUG = "the port's timer is at the legacy timeout itself, which fires one trigger earlier than the legacy timeout";

    @Override
    protected long expiryFor(long batchTimeMs, long durationMs) {
        return batchTimeMs + durationMs;
    }
}
