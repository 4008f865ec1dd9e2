package dev.twstester.samples.mutants;

import dev.twstester.samples.fraud.FraudSessions;

/** Bug: a merchant alert is raised when the spend reaches the limit, not only when it goes over it. */
class FraudLimitReachedNotExceeded extends FraudSessions {
    private static final long serialVersionUID = 1L;
    static final String BUG = "a merchant alert is raised when the spend reaches the limit, not only when it goes over it";

    @Override
    protected boolean crossesLimit(long before, long after) {
        return before < limitCents && after >= limitCents;
    }
}
