package dev.twstester.sim;

import dev.twstester.Scenario;
import dev.twstester.StateEncoding;
import dev.twstester.TwsQuery;

/** {@link StateEncodingTest}'s query and scenario for the live test in another package. */
public final class StateEncodingTestAccess {
    private StateEncodingTestAccess() {}

    /** The query of {@link KeyOrderProcessor} with {@code encoding}. */
    public static TwsQuery<String, String, String> query(StateEncoding encoding) {
        return StateEncodingTest.query(encoding);
    }

    /** One batch at 1000 (key "a"), then the clock at 20,000,000 fires the timers. */
    public static final Scenario<String> SCENARIO = StateEncodingTest.SCENARIO;
}
