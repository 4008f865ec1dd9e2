package dev.twstester.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.BatchResult;
import dev.twstester.RunComparison;
import dev.twstester.RunDifference;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.io.EncoderRows;
import dev.twstester.io.ScenarioPlan;
import dev.twstester.sim.NondeterministicBatchException;
import dev.twstester.report.TimelinePage;
import dev.twstester.sim.TwsSimulator;
import dev.twstester.spark.CheckpointState;
import dev.twstester.spark.LiveOutcome;
import dev.twstester.spark.LiveRunner;

/**
 * One replay: reads (checks) every file of the plan, runs the steps on the simulator one by one
 * (reporting each batch with the file, tick or start that caused it, each stop and restart, and
 * rows and ticks that ran nothing), then optionally
 * the same steps on live Spark and a saved run to compare with. Without a comparison the replay
 * streams: what a step ran is reported and let go before the next step.
 *
 * @param <K> grouping key type
 * @param <I> input row type
 * @param <O> output row type
 */
final class Replay<K, I, O> {
    private final TwsQuery<K, I, O> query;
    private final String queryName;
    private final ReplayPlan plan;
    private final Report<K, I, O> report;
    private final PrintWriter err;
    private final PrintWriter progress;
    private final Settings settings;
    /** True from a start that ran no batch until the next data batch: the restarted query runs none before new data. */
    private boolean restarted;
    /** The rows the last input or add step read. */
    private int lastRows;
    /** Where {@code --html} writes the timeline page, or null. */
    private Path htmlFile;
    /** {@code --from-checkpoint}: the checkpoint the simulator starts from, or null. */
    private Path checkpoint;
    /** {@code --batch-id}: the checkpoint's batch to read, or null for the last committed one. */
    private Long checkpointBatchId;

    /**
     * How the simulator runs and what is shown.
     *
     * @param showState    every key's state after each file's (and tick's) batches
     * @param checkRetries run each batch twice, as a retried task, and fail if the runs differ
     * @param realTime     real-time mode: one {@code handleInputRows} call per input row
     * @param keepRows     how many rows the first reading of the files keeps for the batches (the
     *                     others are read again when their batch runs); see {@link EventInputs}
     * @param compareState with {@code live}: also compare the end states (the simulator's
     *                     {@code snapshot()} after the last step with the state read from live
     *                     Spark's checkpoint) once the batches agree
     */
    record Settings(boolean showState, boolean checkRetries, boolean realTime, long keepRows, boolean compareState) {}

    Replay(TwsQuery<K, I, O> query, String queryName, ReplayPlan plan, Report<K, I, O> report, PrintWriter err,
            PrintWriter progress, Settings settings) {
        this.query = query;
        this.queryName = queryName;
        this.plan = plan;
        this.report = report;
        this.err = err;
        this.progress = progress;
        this.settings = settings;
    }

    /**
     * Runs the replay; the exit code is {@link ExitCodes#OK} or {@link ExitCodes#DIFFERENCE}. Every
     * file is read (checked) before the first batch runs; then each step runs and is reported, and
     * unless a comparison needs the whole run ({@code live} or {@code expected}) the simulator's
     * batches and the file's rows are let go after each step: memory holds the state and one batch.
     */
    /** Also writes the simulator's run as a {@link TimelinePage} to {@code file} (after the run, or its failure). */
    Replay<K, I, O> html(Path file) {
        this.htmlFile = file;
        return this;
    }

    /**
     * Seeds the simulator from the state in the Spark checkpoint {@code dir} (the last committed
     * batch, or {@code batchId} when not null) before the first step, as a restart from it.
     */
    Replay<K, I, O> fromCheckpoint(Path dir, Long batchId) {
        this.checkpoint = dir;
        this.checkpointBatchId = batchId;
        return this;
    }

    int run(boolean live, Path expected) {
        boolean keepRun = live || expected != null;
        EventInputs<I> inputs = EventInputs.read(plan, EncoderRows.of(query.inputEncoder()), query.eventTimeColumn(), err,
                live, settings.keepRows());
        for (EventInputs.Warning w : inputs.warnings()) {
            err.println("twstester: " + w.message(w.file().display()));
        }
        err.flush();
        progress.println("twstester: replaying " + plan.inputCount() + (plan.inputCount() == 1 ? " file" : " files")
                + " with " + queryName + " on the simulator");
        progress.flush();
        TimelinePage<K, I, O> page = htmlFile == null ? null : TimelinePage.of(query, "replay: " + queryName);
        TwsSimulator<K, I, O> sim = startSimulator(keepRun, page);
        if (page != null) {
            page.note(plan.inputCount() + (plan.inputCount() == 1 ? " file" : " files") + ", steps from "
                    + plan.source() + "; every batch as the simulator ran it"
                    + (live ? " (--live compares live Spark's batches with these; the page draws the simulator's)" : ""));
        }
        boolean ran = false;
        try {
            int exit = runSteps(sim, inputs, live, expected, keepRun);
            ran = true;
            return exit;
        } finally {
            if (page != null) {
                writePage(page, ran);
            }
        }
    }

    /** Writes the page; a failure to write fails a run that went well (exit 2), else it is reported only. */
    private void writePage(TimelinePage<K, I, O> page, boolean ran) {
        if (!ran) {
            page.note("The replay stopped with an error after the last batch shown (see the command's output).");
        }
        try {
            page.write(htmlFile);
            progress.println("twstester: timeline page written to " + htmlFile);
            progress.flush();
        } catch (java.io.IOException | RuntimeException e) {
            String message = "--html " + htmlFile + ": could not write the timeline page: " + e;
            if (ran) {
                throw CliException.usage(message, e);
            }
            err.println("twstester: " + message);
            err.flush();
        }
    }

    private int runSteps(TwsSimulator<K, I, O> sim, EventInputs<I> inputs, boolean live, Path expected,
            boolean keepRun) {
        report.start(queryName, plan);
        inputs.warnings().forEach(report::warning);
        Map<Long, BatchCause> causes = new HashMap<>();
        Totals totals = new Totals();
        List<ReplayPlan.Entry> steps = plan.steps();
        for (int i = 0; i < steps.size(); i++) {
            ReplayPlan.Entry step = steps.get(i);
            if (step.kind() == ScenarioPlan.Kind.STOP) {
                sim.stop();
                boolean restart = i + 1 < steps.size() && steps.get(i + 1).kind() == ScenarioPlan.Kind.START;
                if (!restart) {
                    report.stop(sim.processingTime());
                }
                continue;
            }
            RunResult<K, I, O> ran;
            BatchCause cause;
            if (step.kind() == ScenarioPlan.Kind.START) {
                ran = start(sim, step);
                cause = BatchCause.start();
            } else {
                boolean running = sim.isRunning();
                Instant nextTrigger = sim.nextTriggerTime();
                ran = runStep(sim, step, inputs);
                cause = step.file() != null ? BatchCause.file(step.file()) : BatchCause.tick(step.step().time());
                if (ran.batches().isEmpty() && step.kind() == ScenarioPlan.Kind.TICK) {
                    report.tickWithoutBatch(step.step().time(), whyNoBatch(sim, running, nextTrigger));
                } else if (ran.batches().isEmpty() && step.kind() == ScenarioPlan.Kind.ADD) {
                    report.addWithoutBatch(step.file().label(), lastRows, sim.waitingRows().size(), running
                            ? "the next trigger runs at " + sim.nextTriggerTime()
                            : "the query is stopped: its start reads them");
                }
            }
            List<BatchResult<K, I, O>> batches = ran.batches();
            for (int b = 0; b < batches.size(); b++) {
                BatchResult<K, I, O> batch = batches.get(b);
                if (keepRun) {
                    causes.put(batch.batchId(), cause);
                }
                restarted &= !batch.hadInput();
                totals.add(batch);
                StateSnapshot<K> state = settings.showState() && b == batches.size() - 1
                        ? StateSnapshot.of(sim.state()) : null;
                report.batch(batch, cause, state);
            }
        }
        boolean pending = sim.noDataBatchPending() && !query.timeMode().equals(TimeMode.ProcessingTime());
        report.end(totals, plan.inputCount(), sim.watermark(), sim.processingTime(), sim.state().keys(),
                pending ? sim.nextTriggerTime() : null);
        int exit = ExitCodes.OK;
        if (keepRun) {
            RunResult<K, I, O> simulated = sim.history();
            if (live) {
                exit = Math.max(exit, compareWithLive(sim, simulated, scenario(inputs), causes));
            }
            if (expected != null) {
                RunResult<K, I, O> saved = ExpectedRun.read(expected, query);
                List<RunDifference> differences = batchDifferences("expected", simulated, saved);
                report.comparison("expected", "expected run " + expected, saved, differences, causes, null);
                exit = Math.max(exit, summarize("expected run " + expected, differences));
            }
        }
        return exit;
    }

    /** What the batches of a replay add up to, counted as they run. */
    static final class Totals {
        private int batches;
        private long outputs;
        private long timersFired;
        private long droppedLate;

        void add(BatchResult<?, ?, ?> b) {
            batches++;
            outputs += b.outputs().size();
            timersFired += b.firedTimers().size();
            droppedLate += b.droppedLate().size();
        }

        int batches() {
            return batches;
        }

        long outputs() {
            return outputs;
        }

        long timersFired() {
            return timersFired;
        }

        long droppedLate() {
            return droppedLate;
        }
    }

    private TwsSimulator<K, I, O> startSimulator(boolean keepHistory, TimelinePage<K, I, O> page) {
        TwsSimulator.Builder<K, I, O> builder = TwsSimulator.builder(query).keepHistory(keepHistory);
        if (page != null) {
            builder.listener(page);
        }
        if (settings.checkRetries()) {
            builder.checkRetries();
        }
        if (settings.realTime()) {
            builder.realTimeMode();
        }
        try {
            TwsSimulator<K, I, O> sim = builder.build();
            if (checkpoint != null) {
                seed(sim);
            }
            return sim;
        } catch (RuntimeException e) {
            if (e instanceof SparkThrowable) {
                throw new StepFailure(queryName + ": the driver-side init/close pass at query start", -1, e);
            }
            if (e instanceof IllegalArgumentException || e instanceof IllegalStateException) {
                throw CliException.usage("--query " + queryName + ": " + Failures.oneLine(e.getMessage()), e);
            }
            throw e;
        }
    }

    /** Restores the state read from {@link #checkpoint} into {@code sim}, which then waits for new data as after a restart. */
    private void seed(TwsSimulator<K, I, O> sim) {
        progress.println("twstester: reading the state of " + checkpoint + " with Spark's state data source");
        progress.flush();
        CheckpointState<K> reader = CheckpointState.of(query);
        if (checkpointBatchId != null) {
            reader.batchId(checkpointBatchId);
        }
        dev.twstester.sim.StateSnapshot state;
        try {
            state = reader.read(checkpoint);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw CliException.usage("--from-checkpoint " + checkpoint + ": " + e.getMessage(), e);
        }
        sim.restore(state);
        restarted = true;
        progress.println("twstester: started from the checkpoint's batch " + (state.nextBatchId() - 1) + ": "
                + keys(sim.state().keys().size()) + " with state or timers, watermark " + state.watermark()
                + ", processing time " + state.processingTime() + "; the next batch is " + state.nextBatchId());
        progress.flush();
    }

    private static String keys(int n) {
        return n + (n == 1 ? " key" : " keys");
    }

    private RunResult<K, I, O> runStep(TwsSimulator<K, I, O> sim, ReplayPlan.Entry entry, EventInputs<I> inputs) {
        ScenarioPlan.Step step = entry.step();
        String where = entry.file() != null ? entry.file().display() : "tick to " + step.time();
        if (step.kind() == ScenarioPlan.Kind.INPUT && step.time() != null && query.triggerIntervalMs() > 0
                && step.time().isBefore(sim.nextTriggerTime())) {
            throw CliException.usage(entry.file().label() + " at " + step.time() + " (" + plan.where(entry) + "): no trigger"
                    + " runs then; with a trigger interval of " + Duration.ofMillis(query.triggerIntervalMs())
                    + " the next one runs at " + sim.nextTriggerTime() + ": give that time or a later one, or"
                    + " at=current for the next trigger");
        }
        try {
            List<I> rows = entry.file() == null ? List.of() : inputs.take(entry.file());
            lastRows = rows.size();
            return sim.run(new Scenario<>(List.of(step.toScenarioStep(rows))));
        } catch (RuntimeException e) {
            // Spark's errors, a batch that differs when retried (--check-retries), and the query's
            // own code failing outside the processor (the key function, the input encoder), which
            // the simulator reports as IllegalArgumentException
            if (e instanceof SparkThrowable || e instanceof NondeterministicBatchException
                    || e instanceof IllegalArgumentException) {
                throw new StepFailure(where, sim.nextBatchId(), e, "at query start", entry, plan.where(entry));
            }
            throw e;
        }
    }

    /**
     * The plan's start step: the query starts again from its checkpoint (a fresh processor's driver
     * pass runs) and its first trigger reads the rows waiting, if any.
     */
    private RunResult<K, I, O> start(TwsSimulator<K, I, O> sim, ReplayPlan.Entry entry) {
        long nextBatchId = sim.nextBatchId();
        int waiting = sim.waitingRows().size();
        Instant watermark = sim.watermark();
        RunResult<K, I, O> ran;
        try {
            ran = sim.start();
        } catch (RuntimeException e) {
            if (e instanceof SparkThrowable) {
                throw new StepFailure("restart before batch " + nextBatchId + " (" + plan.where(entry) + ")", -1,
                        e, "the new processor's driver-side init/close pass", entry, plan.where(entry));
            }
            throw e;
        }
        restarted = ran.batches().isEmpty();
        report.restart(nextBatchId, watermark, sim.processingTime(), waiting);
        return ran;
    }

    private String whyNoBatch(TwsSimulator<K, I, O> sim, boolean running, Instant nextTrigger) {
        if (!running) {
            return "the query is stopped: nothing runs until its start";
        }
        boolean processingTime = query.timeMode().equals(TimeMode.ProcessingTime());
        if (query.triggerIntervalMs() > 0 && sim.processingTime().isBefore(nextTrigger)) {
            return "no trigger: the next one runs at " + nextTrigger;
        }
        if (!processingTime) {
            return query.triggerIntervalMs() > 0
                    ? "the trigger found no rows waiting and no no-data batch due"
                    : "only the clock moved: " + TextReport.timeMode(query.timeMode())
                            + " queries run batches for input, not for trigger ticks";
        }
        if (sim.nextBatchId() == 0) {
            return "no batch has run yet: Spark runs nothing before the first data batch";
        }
        return restarted ? "the query restarted: Spark runs nothing before the next data batch" : "nothing to do";
    }

    /** The plan as a {@link Scenario} for live Spark. */
    private Scenario<I> scenario(EventInputs<I> inputs) {
        List<Scenario.Step<I>> steps = new ArrayList<>();
        for (ReplayPlan.Entry e : plan.steps()) {
            steps.add(e.step().toScenarioStep(e.file() == null ? List.of() : inputs.kept(e.file())));
        }
        return new Scenario<>(steps);
    }

    /**
     * Runs the steps on live Spark and compares its batches with {@code simulated}, {@code sim}'s
     * run; then, unless {@link Settings#compareState()} is off or the batches differ, the end
     * states: {@code sim}'s snapshot (taken now, after the last step of that same run) with the
     * state live Spark's checkpoint holds after its last batch.
     */
    private int compareWithLive(TwsSimulator<K, I, O> sim, RunResult<K, I, O> simulated, Scenario<I> scenario,
            Map<Long, BatchCause> causes) {
        boolean withState = settings.compareState();
        dev.twstester.sim.StateSnapshot simulatedState = withState ? sim.snapshot() : null;
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
                + String.format(java.util.Locale.ROOT, "%.1f s", (System.nanoTime() - started) / 1e9));
        progress.flush();
        List<RunDifference> differences = batchDifferences("spark", simulated, live.run());
        Report.EndState endState;
        if (!withState) {
            endState = Report.EndState.notCompared("--no-compare-state");
        } else if (!differences.isEmpty()) {
            endState = Report.EndState.notCompared("the batches differ; the end states are compared when they agree");
        } else {
            endState = Report.EndState.compared(simulatedState.nextBatchId() - 1, sim.state().keys().size(),
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

    private static List<RunDifference> batchDifferences(String otherName, RunResult<?, ?, ?> simulated,
            RunResult<?, ?, ?> other) {
        return RunComparison.between("simulator", otherName).differences(simulated, other);
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

    /** A batch failed: the processor threw or misused the state API, or the key function or input encoder failed. */
    static final class StepFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private final String where;
        private final long batchId;
        private final String driverPass;
        private final transient ReplayPlan.Entry entry;
        private final String planWhere;

        StepFailure(String where, long batchId, Throwable cause) {
            this(where, batchId, cause, "at query start", null, null);
        }

        /**
         * {@code driverPass} names a failure outside any batch: at query start, or at a restart;
         * {@code entry} (or null) is the plan's step that failed, {@code planWhere} where the plan
         * gives it ({@code scenario.txt:3}, {@code options}).
         */
        StepFailure(String where, long batchId, Throwable cause, String driverPass, ReplayPlan.Entry entry,
                String planWhere) {
            super(where + ": " + cause.getMessage(), cause);
            this.where = where;
            this.batchId = batchId;
            this.driverPass = driverPass;
            this.entry = entry;
            this.planWhere = planWhere;
        }

        /** The plan's step that failed, or null (the driver pass at query start). */
        ReplayPlan.Entry entry() {
            return entry;
        }

        /** Where the plan gives the step ({@code scenario.txt:3}, {@code options}), or null. */
        String planWhere() {
            return planWhere;
        }

        String driverPass() {
            return driverPass;
        }

        String where() {
            return where;
        }

        long batchId() {
            return batchId;
        }
    }
}
