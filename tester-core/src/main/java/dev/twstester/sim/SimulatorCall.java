package dev.twstester.sim;

import java.util.List;
import java.util.Objects;

import dev.twstester.Scenario;

/**
 * A call made on a {@link TwsSimulator}, as a {@link SimulatorListener} sees it.
 *
 * @param description   the call as text, e.g. {@code runBatch(3 rows)} or {@code state().setValue("count", ana, 3)}
 * @param steps         the scenario steps it stands for, which replay it on live Spark or another
 *                      simulator (empty when it has none)
 * @param notReplayable null when {@code steps} replay the call; else why a streaming query cannot do
 *                      what it did (a forced watermark, a state write, a restore, ...)
 * @param <I>           input row type
 */
public record SimulatorCall<I>(String description, List<Scenario.Step<I>> steps, String notReplayable) {
    static final String RESTORE_NOT_REPLAYABLE = "a streaming query restarts from its own checkpoint only; restart()"
            + " replays live, restore(snapshot) does not";
    static final String RESTART_WITH_NOT_REPLAYABLE = "restartWith(next) deploys a new version of the query, which a"
            + " replay of one query cannot; compare a new version with Spark by LiveRunner.runThenRestartWith";
    static final String WATERMARK_NOT_REPLAYABLE = "Spark moves the watermark only from the event times of input rows;"
            + " drive it with input (runBatch) instead";
    static final String BACK_TO_BACK_NOT_REPLAYABLE = "with a zero trigger interval a Scenario has no back-to-back"
            + " step: live Spark reads each input as soon as it arrives; give the query a trigger interval";
    static final String STATE_WRITE_NOT_REPLAYABLE = "a streaming query's state starts empty (or from the query's"
            + " initial state); write it through input rows or TwsQuery.Builder.initialState instead";

    public SimulatorCall {
        Objects.requireNonNull(description, "description must not be null");
        steps = List.copyOf(steps);
    }

    /** Whether {@link #steps()} replay the call. */
    public boolean replayable() {
        return notReplayable == null;
    }
}
