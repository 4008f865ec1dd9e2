package dev.twstester.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.twstester.RunComparison;
import dev.twstester.RunDifference;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.StateSnapshot;
import dev.twstester.sim.TwsSimulator;
import dev.twstester.spark.LiveOutcome;
import dev.twstester.spark.LiveRunner;

/**
 * The simulator's run of a replay compared with another run of the same steps: live Spark's
 * ({@code --live}), batch by batch and then the end states, or a run saved earlier
 * ({@code --expect}), batch by batch. For a query of several stateful operators every operator's
 * view of every batch is compared (its input, late rows, outputs, timers and metrics), each
 * difference named with its operator: {@code operator 1 (HourlyDigest): batch 7 (no-data batch), key ...}.
 *
 * @param <K> grouping key type
 * @param <I> input row type
 * @param <O> output row type
 */
final class ReplayComparison<K, I, O> {
    private final TwsQuery<K, I, O> query;
    private final Report<K, I, O> report;
    private final PrintWriter err;
    private final PrintWriter progress;

    ReplayComparison(TwsQuery<K, I, O> query, Report<K, I, O> report, PrintWriter err, PrintWriter progress) {
        this.query = query;
        this.report = report;
        this.err = err;
        this.progress = progress;
    }

    /**
     * Runs {@code scenario} on live Spark and compares its batches with {@code simulated},
     * {@code sim}'s run; then, when {@code withState} and the batches agree, the end states:
     * {@code sim}'s snapshot (taken now, after the last step of that same run) with the state live
     * Spark's checkpoint holds after its last batch. Returns the exit code.
     */
    int withLive(TwsSimulator<K, I, O> sim, RunResult<K, I, O> simulated, Scenario<I> scenario,
            Map<Long, BatchCause> causes, boolean withState) {
        StateSnapshot simulatedState = withState ? sim.snapshot() : null;
        progress.println("twstester: running the same steps on live Spark (local, RocksDB state store"
                + (withState ? "; then reading its end state from the checkpoint" : "")
                + "); starting Spark takes a few seconds");
        progress.flush();
        long started = System.nanoTime();
        LiveRunner<K, I, O> runner = LiveRunner.of(query);
        LiveOutcome<K, I, O> live = withState ? runner.runWithEndState(scenario)
                : new LiveOutcome<>(runner.run(scenario), null);
        progress.println("twstester: live Spark ran " + live.run().batches().size() + " batches"
                + (withState ? " and its end state was read" : "") + " in "
                + String.format(Locale.ROOT, "%.1f s", (System.nanoTime() - started) / 1e9));
        progress.flush();
        List<RunDifference> differences = batchDifferences("spark", simulated, live.run());
        Report.EndState endState;
        if (!withState) {
            endState = Report.EndState.notCompared("--no-compare-state");
        } else if (!differences.isEmpty()) {
            endState = Report.EndState.notCompared("the batches differ; the end states are compared when they agree");
        } else {
            endState = Report.EndState.compared(simulatedState.nextBatchId() - 1, Replay.keysWithState(sim).stream()
                            .mapToInt(List::size).sum(),
                    RunComparison.simulatorVsSpark().stateDifferences(simulatedState, live.endState()));
        }
        report.comparison("spark", "live Spark", live.run(), differences, causes, endState);
        int exit = summarize("live Spark", differences);
        if (!endState.same()) {
            List<RunDifference> found = endState.differences();
            err.println("twstester: live Spark's end state differs from the simulator's (" + found.size()
                    + (found.size() == 1 ? " difference" : " differences") + ", first: "
                    + found.get(0).message().lines().findFirst().orElse("") + ")");
            exit = ExitCodes.DIFFERENCE;
        }
        return exit;
    }

    /** Compares {@code simulated} with the run saved in {@code expected}; returns the exit code. */
    int withExpected(Path expected, RunResult<K, I, O> simulated, Map<Long, BatchCause> causes) {
        RunResult<K, I, O> saved = ExpectedRun.read(expected, query);
        List<RunDifference> differences = batchDifferences("expected", simulated, saved);
        report.comparison("expected", "expected run " + expected, saved, differences, causes, null);
        return summarize("expected run " + expected, differences);
    }

    /**
     * The differences between the two runs: of the query's batches for one operator, else of each
     * operator's views (the batch count once), in batch order, each message starting with its
     * operator; the failed batches, the query's, once and without an operator.
     */
    private List<RunDifference> batchDifferences(String otherName, RunResult<K, I, O> simulated,
            RunResult<K, I, O> other) {
        RunComparison<Object> comparison = RunComparison.between("simulator", otherName);
        List<TwsQuery<?, ?, ?>> operators = query.operators();
        if (operators.size() == 1) {
            return comparison.differences(simulated, other);
        }
        List<RunDifference> found = new ArrayList<>();
        for (int i = 0; i < operators.size(); i++) {
            String operator = TextReport.operatorName(operators, i) + ": ";
            for (RunDifference d : comparison.differences(simulated.operator(i), other.operator(i))) {
                if (d.aspect() == RunDifference.Aspect.FAILED_BATCHES) {
                    if (i == 0) {
                        found.add(d);   // the query's failed batches, the same in each view: once, as the query's
                    }
                } else if (i == 0 || d.aspect() != RunDifference.Aspect.BATCH_COUNT) {
                    found.add(new RunDifference(d.batchId(), d.aspect(), d.key(), d.left(), d.right(),
                            operator + d.message()));
                }
            }
        }
        found.sort(Comparator.comparingLong(RunDifference::batchId));
        return found;
    }

    /** The stderr line for batch differences with {@code otherTitle}'s run, and the exit code they mean. */
    private int summarize(String otherTitle, List<RunDifference> differences) {
        if (differences.isEmpty()) {
            return ExitCodes.OK;
        }
        err.println("twstester: " + otherTitle + " differs from the simulator ("
                + differences.size() + (differences.size() == 1 ? " difference" : " differences")
                + ", first in batch " + differences.get(0).batchId() + ")");
        return ExitCodes.DIFFERENCE;
    }
}
