package dev.twstester.samples.mutants;

import dev.twstester.samples.sessions.BounceAlerts;

/** Bug: a page whose sessions bounced exactly half of the time gets no alert (more than half is required). */
class BounceHalfRuleStrict extends BounceAlerts {
    private static final long serialVersionUID = 1L;
    static final String BUG = "a page whose sessions bounced exactly half of the time gets no alert (more than half is required)";

    @Override
    protected boolean raisesAlert(long n, long b) {
        return n >= MIN_SESSIONS && 2 * b > n;
    }
}
