package dev.twstester.sim;

import java.time.Instant;
import java.util.List;

import dev.twstester.RunResult;
import dev.twstester.Scenario;

/** The simulator's calls that do each step of a scenario ({@link TwsSimulator#run}). */
final class ScenarioSteps<K, I, O> implements Scenario.StepTarget<I, RunResult<K, I, O>> {
    private final TwsSimulator<K, I, O> simulator;

    ScenarioSteps(TwsSimulator<K, I, O> simulator) {
        this.simulator = simulator;
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
