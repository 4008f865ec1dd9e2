package dev.twstester.sim;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.internal.Triggers;

/**
 * The simulator's calls that do each step of a scenario ({@link TwsSimulator#run}). A deploy step
 * moves the run to the new version's simulator ({@link Restarts#prepare}); the steps after it run
 * there, as part of the scenario's call, and the simulator the scenario ran on gets its batches and
 * failures in its history.
 */
final class ScenarioSteps<K, I, O> implements Scenario.StepTarget<I, RunResult<K, I, O>> {
    private final TwsSimulator<K, I, O> first;
    /** The running version: the first, or the one the last deploy step started. */
    private TwsSimulator<K, I, O> simulator;
    /** Every batch that committed, in order, over every version (a failing step's earlier batches too). */
    private final List<BatchResult<K, I, O>> ran = new ArrayList<>();

    ScenarioSteps(TwsSimulator<K, I, O> simulator) {
        this.first = simulator;
        this.simulator = simulator;
    }

    /**
     * Runs {@code steps}; returns the batches that committed (those a failing step committed
     * before its failure too). A step whose batch fails stops the
     * query, and the steps after it run on, as they would with Spark's query down: rows wait, the
     * clock moves, a start runs the failed batch again. A run that ends with the query still stopped
     * by a failed batch, or comes to a batch step then, throws that batch's exception.
     */
    List<BatchResult<K, I, O>> run(List<Scenario.Step<I>> steps) {
        simulator.calls().recordInto(ran);
        try {
            runSteps(steps);
            return ran;
        } finally {
            simulator.calls().recordInto(null);
            if (simulator != first) { // what the deployed versions ran shows in the first one's history too
                carry(simulator.calls().history(), first.calls().history());
                carry(simulator.calls().failures(), first.calls().failures());
            }
        }
    }

    /** Adds to {@code to} what {@code from}, which began as a copy of it, has beyond it. */
    private static <T> void carry(List<T> from, List<T> to) {
        to.addAll(from.subList(Math.min(to.size(), from.size()), from.size()));
    }

    private void runSteps(List<Scenario.Step<I>> steps) {
        RuntimeException failure = null;
        boolean availableNow = Triggers.isAvailableNow(simulator.query().trigger());
        for (Scenario.Step<I> step : steps) {
            if (failure != null && simulator.loop().failed() && step instanceof Scenario.Input<I> && !availableNow) {
                throw failure; // a batch while the query is down: the run ends with the failure that stopped it
            }
            int failedBefore = simulator.calls().failures().size();
            try {
                simulator.calls().nested(() -> step.applyTo(this)); // its batches are recorded as they commit
            } catch (RuntimeException e) {
                if (simulator.calls().failures().size() == failedBefore) {
                    throw e; // not a failed batch: a step the stopped query cannot run, say
                }
                failure = e;
            }
        }
        if (simulator.loop().failed()) {
            throw failure;
        }
    }

    @Override
    public RunResult<K, I, O> batch(List<I> rows, Instant at) {
        return at == null ? simulator.runBatch(rows) : simulator.runBatchAt(at, rows);
    }

    @Override
    public RunResult<K, I, O> addData(List<I> rows) {
        return simulator.addData(rows);
    }

    @Override
    public RunResult<K, I, O> tick(Instant to) {
        return simulator.setProcessingTime(to);
    }

    @Override
    public RunResult<K, I, O> stop() {
        simulator.stop();
        return new RunResult<>(List.of());
    }

    @Override
    public RunResult<K, I, O> start() {
        return simulator.start();
    }

    /**
     * Deploys {@code query} as {@link TwsSimulator#restartWith} does, and goes on with the new
     * version: its first trigger runs the batch a failure left, if any, then the rows that waited.
     */
    @Override
    public RunResult<K, I, O> deploy(String version, TwsQuery<?, I, ?> query) {
        TwsSimulator<K, I, O> deployed = Restarts.prepare(simulator, sameTypes(version, query));
        simulator.calls().recordInto(null);
        deployed.calls().recordInto(ran);
        simulator = deployed;
        return new RunResult<>(deployed.loop().start());
    }

    /** {@code query} as a version of the running query: the same key and output encoders, else throws. */
    @SuppressWarnings("unchecked")
    private TwsQuery<K, I, O> sameTypes(String version, TwsQuery<?, I, ?> query) {
        TwsQuery<?, I, ?> next = new Scenario.Deploy<>(version, query).requireQuery();
        TwsQuery<K, I, O> running = simulator.query();
        if (!next.keyEncoder().equals(running.keyEncoder()) || !next.outputEncoder().equals(running.outputEncoder())) {
            throw new IllegalArgumentException("deploy " + version + ": its key encoder " + next.keyEncoder()
                    + " and output encoder " + next.outputEncoder() + " must be the running query's ("
                    + running.keyEncoder() + ", " + running.outputEncoder() + "); a new version may change each "
                    + "operator's processor, not the plan");
        }
        return (TwsQuery<K, I, O>) next;
    }
}
