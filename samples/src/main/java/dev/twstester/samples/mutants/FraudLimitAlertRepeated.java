package dev.twstester.samples.mutants;

import dev.twstester.samples.fraud.FraudSessions;

/** Bug: every payment above the limit raises the merchant alert again, not only the one that crosses it. */
class FraudLimitAlertRepeated extends FraudSessions {
    private static final long serialVersionUID = 1L;
    static final String BUG = "every payment above the limit raises the merchant alert again, not only the one that crosses it";

    @Override
    protected boolean crossesLimit(long before, long after) {
        return after > limitCents;
    }
}
