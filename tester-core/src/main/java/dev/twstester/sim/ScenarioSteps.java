package dev.twstester.sim;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.internal.Triggers;

/** The simulator's calls that do each step of a scenario ({@link TwsSimulator#run}). */
final class ScenarioSteps<K, I, O> implements Scenario.StepTarget<I, RunResult<K, I, O>> {
    private final TwsSimulator<K, I, O> simulator;

    ScenarioSteps(TwsSimulator<K, I, O> simulator) {
        this.simulator = simulator;
    }

    /**
     * Runs {@code steps}; returns the batches that committed. A step whose batch fails stops the
     * query, and the steps after it run on, as they would with Spark's query down: rows wait, the
     * clock moves, a start runs the failed batch again. A run that ends with the query still stopped
     * by a failed batch, or comes to a batch step then, throws that batch's exception.
     */
    List<BatchResult<K, I, O>> run(List<Scenario.Step<I>> steps) {
        List<BatchResult<K, I, O>> ran = new ArrayList<>();
        RuntimeException failure = null;
        boolean availableNow = Triggers.isAvailableNow(simulator.query().trigger());
        for (Scenario.Step<I> step : steps) {
            if (failure != null && simulator.loop().failed() && step instanceof Scenario.Input<I> && !availableNow) {
                throw failure; // a batch while the query is down: the run ends with the failure that stopped it
            }
            int failedBefore = simulator.calls().failures().size();
            try {
                ran.addAll(step.applyTo(this).batches());
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
        return ran;
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
}
