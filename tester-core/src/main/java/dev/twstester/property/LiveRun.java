package dev.twstester.property;

import java.util.ArrayList;
import java.util.List;

import dev.twstester.BatchResult;
import dev.twstester.FailedBatch;
import dev.twstester.RunResult;
import dev.twstester.sim.TwsSimulator;

/**
 * A try's simulator as its run left it, with the try's coverage recorder and result, kept with
 * the try's corpus entry. A derived try whose scenario is this one's with steps added at the end
 * goes on from it ({@link QueryProperty}): only the added steps run, as one simulator running
 * the whole scenario would run them, since a scenario's steps are separate calls of the simulator.
 * One derived try takes it; the simulator then belongs to that try.
 *
 * @param owner     the property that ran it; only that property's tries go on from it
 * @param scenario  the scenario it ran
 * @param simulator the simulator, after the run
 * @param recorder  the coverage recorder attached to it
 * @param run       what the run committed and what failed
 */
record LiveRun<K, I, O>(Object owner, GenScenario scenario, TwsSimulator<K, I, O> simulator,
        CoverageRecorder<K, I, O> recorder, RunResult<K, I, O> run) {

    /** {@link #run} followed by {@code more}: the result of the whole scenario. */
    RunResult<K, I, O> then(RunResult<K, I, O> more) {
        List<BatchResult<K, I, O>> batches = new ArrayList<>(run.batches());
        batches.addAll(more.batches());
        List<FailedBatch> failures = new ArrayList<>(run.failures());
        failures.addAll(more.failures());
        return new RunResult<>(batches, failures);
    }
}
