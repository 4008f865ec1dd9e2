package dev.twstester.sim;

import dev.twstester.Scenario;
import dev.twstester.TwsQuery;

/** The query and scenario of {@link MapValuesTest}, for the live test in another package. */
public final class MapValuesTestAccess {
    private MapValuesTestAccess() {
    }

    public static TwsQuery<String, Event, String> tallyOfCommands() {
        return MapValuesTest.tallyOfCommands();
    }

    public static Scenario<Event> lateRowScenario() {
        return MapValuesTest.lateRowScenario();
    }
}
