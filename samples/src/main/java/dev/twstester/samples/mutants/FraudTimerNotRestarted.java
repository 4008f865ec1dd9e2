package dev.twstester.samples.mutants;

import dev.twstester.samples.fraud.FraudSessions;

/** Bug: each payment batch adds a session timer without deleting the pending one, so the first one ends the session. */
class FraudTimerNotRestarted extends FraudSessions {
    private static final long serialVersionUID = 1L;
    static final String BUG = "each payment batch adds a session timer without deleting the pending one, so the first ends the session";

    @Override
    protected void restartSessionTimer(long expiry) {
        getHandle().registerTimer(expiry);
    }
}
