package dev.twstester.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.BatchResult;
import dev.twstester.FailedBatch;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.io.EncoderRows;
import dev.twstester.io.ScenarioPlan;
import dev.twstester.report.TimelinePage;
import dev.twstester.sim.NondeterministicBatchException;
import dev.twstester.sim.SimulatorListener;
import dev.twstester.sim.StateDump;
import dev.twstester.sim.StateSnapshot;
import dev.twstester.sim.TwsSimulator;
import dev.twstester.spark.CheckpointState;

/**
 * One replay: reads (checks) every file of the plan, runs the steps on the simulator one by one
 * (reporting each batch with the file, tick or start that caused it, each stop and restart, and
 * rows and ticks that ran nothing), then optionally the same steps on live Spark and a saved run
 * to compare with ({@link ReplayComparison}). Without a comparison the replay streams: what a step
 * ran is reported and let go before the next step. Any number of stateful operators: the report
 * shows each operator's view of a batch, and its state.
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
    /** Where {@code --html} writes the timeline page, or null. */
    private Path htmlFile;
    /** {@code --from-checkpoint}: the checkpoint the simulator starts from, or null. */
    private Path checkpoint;
    /** {@code --batch-id}: the checkpoint's batch to read, or null for the last committed one. */
    private Long checkpointBatchId;
    /** The query of each version the plan's deploy steps name. */
    private Map<String, TwsQuery<K, I, O>> versions = Map.of();
    /** The running version's simulator and the last failed batch, as the simulators report them. */
    private final Tracker tracker = new Tracker();

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

    /** Also writes the simulator's run as a {@link TimelinePage} to {@code file} (after the run, or its failure). */
    Replay<K, I, O> html(Path file) {
        this.htmlFile = file;
        return this;
    }

    /** The query of each version the plan's deploy steps name ({@link ReplayPlan#deployedVersions}). */
    Replay<K, I, O> versions(Map<String, TwsQuery<K, I, O>> deployed) {
        this.versions = Map.copyOf(deployed);
        return this;
    }

    /**
     * What the simulators report that a replay step needs: the version running now (a deploy
     * replaces it, even when its first batch fails), the last failed batch, and the batches a
     * deploy commits ({@link #record}; nothing is kept otherwise, so a streaming replay keeps one batch).
     */
    private final class Tracker implements SimulatorListener<K, I, O> {
        private TwsSimulator<K, I, O> current;
        private FailedBatch lastFailure;
        private int failures;
        /** The batches committed since {@link #record}, or null when not recording. */
        private List<BatchResult<K, I, O>> committed;

        /** Keeps the batches that commit from now on (true), or stops keeping them (false). */
        void record(boolean on) {
            committed = on ? new ArrayList<>() : null;
        }

        @Override
        public void restartedWith(TwsSimulator<K, I, O> next) {
            current = next;
        }

        @Override
        public void batchCommitted(BatchResult<K, I, O> batch, TwsSimulator<K, I, O> simulator) {
            if (committed != null) {
                committed.add(batch);
            }
        }

        @Override
        public void batchFailed(FailedBatch failed, TwsSimulator<K, I, O> simulator) {
            lastFailure = failed;
            failures++;
        }
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

    /**
     * Runs the replay; the exit code is {@link ExitCodes#OK} or {@link ExitCodes#DIFFERENCE}. Every
     * file is read (checked) before the first batch runs; then each step runs and is reported, and
     * unless a comparison needs the whole run ({@code live} or {@code expected}) the simulator's
     * batches and the file's rows are let go after each step: memory holds the state and one batch.
     */
    int run(boolean live, Path expected) {
        boolean keepRun = live || expected != null;
        EventInputs<I> inputs = EventInputs.read(plan, EncoderRows.of(query.inputEncoder()), query.eventTimeColumn(), err,
                live, settings.keepRows());
        for (EventInputs.Warning w : inputs.warnings()) {
            err.println("twstester: " + w.message(w.file().display()));
        }
        if (inputs.valuesReadAsNull() > 0) {
            long n = inputs.valuesReadAsNull();
            err.println("twstester: warning: " + n + (n == 1 ? " value" : " values") + " of the input files became null"
                    + " (Spark's JSON source cannot read " + (n == 1 ? "it" : "them") + ": see the warnings above); the"
                    + " processor gets null there");
        }
        err.flush();
        progress.println("twstester: replaying " + files(plan.inputCount()) + " with " + queryName + " on the simulator");
        progress.flush();
        TimelinePage<K, I, O> page = htmlFile == null ? null : TimelinePage.of(query, "replay: " + queryName);
        startSimulator(keepRun, page);
        if (page != null) {
            page.note(files(plan.inputCount()) + ", steps from " + plan.source() + "; every batch as the simulator ran it"
                    + (live ? " (--live compares live Spark's batches with these; the page draws the simulator's)" : ""));
        }
        boolean ran = false;
        try {
            Steps steps = new Steps(inputs, keepRun);
            steps.runAll();
            TwsSimulator<K, I, O> sim = tracker.current;
            int exit = ExitCodes.OK;
            ReplayComparison<K, I, O> comparison = new ReplayComparison<>(query, report, err, progress);
            if (live) {
                exit = comparison.withLive(sim, sim.history(), scenario(inputs), steps.causes, settings.compareState());
            }
            if (expected != null) {
                exit = Math.max(exit, comparison.withExpected(expected, sim.history(), steps.causes));
            }
            ran = true;
            return exit;
        } finally {
            if (page != null) {
                writePage(page, ran);
            }
        }
    }

    private static String files(int n) {
        return n + (n == 1 ? " file" : " files");
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

    /** Each operator's keys with state or timers, in plan order. */
    static List<List<?>> keysWithState(TwsSimulator<?, ?, ?> sim) {
        List<List<?>> keys = new ArrayList<>();
        for (int i = 0; i < sim.query().operators().size(); i++) {
            keys.add(sim.state(i).keys());
        }
        return keys;
    }

    /** Each operator's state now, in plan order. */
    private static List<StateDump<?>> dumps(TwsSimulator<?, ?, ?> sim) {
        List<StateDump<?>> dumps = new ArrayList<>();
        for (int i = 0; i < sim.query().operators().size(); i++) {
            dumps.add(sim.state(i).dump());
        }
        return dumps;
    }

    /** What the batches of a replay add up to, counted as they run, over every operator. */
    static final class Totals {
        private int batches;
        private long outputs;
        private long timersFired;
        private long droppedLate;

        void add(BatchResult<?, ?, ?> b) {
            batches++;
            outputs += b.outputs().size();
            for (BatchResult<?, ?, ?> operator : b.operators()) {
                timersFired += operator.firedTimers().size();
                droppedLate += operator.droppedLate().size();
            }
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
        TwsSimulator.Builder<K, I, O> builder = TwsSimulator.builder(query).keepHistory(keepHistory).listener(tracker);
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
            tracker.current = sim;
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
        StateSnapshot state;
        try {
            state = reader.read(checkpoint);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw CliException.usage("--from-checkpoint " + checkpoint + ": " + e.getMessage(), e);
        }
        sim.restore(state);
        progress.println("twstester: started from the checkpoint's batch " + (state.nextBatchId() - 1) + ": "
                + keysText(keysWithState(sim)) + " with state or timers, watermark " + state.watermark()
                + ", processing time " + state.processingTime() + "; the next batch is " + state.nextBatchId());
        progress.flush();
    }

    /** {@code 2 keys}, or per operator: {@code 2 keys in operator 0, 1 key in operator 1}. */
    private static String keysText(List<List<?>> keys) {
        if (keys.size() == 1) {
            return keys(keys.get(0).size());
        }
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            parts.add(keys(keys.get(i).size()) + " in operator " + i);
        }
        return String.join(", ", parts);
    }

    private static String keys(int n) {
        return n + (n == 1 ? " key" : " keys");
    }

    /** The plan as a {@link Scenario} for live Spark. */
    private Scenario<I> scenario(EventInputs<I> inputs) {
        List<Scenario.Step<I>> steps = new ArrayList<>();
        for (ScenarioPlan.Step step : plan.steps()) {
            EventFile file = plan.file(step);
            Scenario.Step<I> withRows = step.withRows(file == null ? List.<I>of() : inputs.kept(file));
            steps.add(withRows instanceof Scenario.Deploy<I> d ? new Scenario.Deploy<>(d.version(), versions.get(d.version()))
                    : withRows);
        }
        return new Scenario<>(steps);
    }

    /**
     * The plan's steps on the simulator, each run through {@link Scenario.Step#applyTo} and reported:
     * the batches it ran with their cause, or why it ran none; a stop is reported when a start does
     * not follow it at once (a plan's {@code restart}).
     */
    private final class Steps implements Scenario.StepTarget<I, RunResult<K, I, O>> {
        private TwsSimulator<K, I, O> sim;
        private final EventInputs<I> inputs;
        private final boolean keepRun;
        private final Totals totals = new Totals();
        /** Each batch's cause, by batch id, for the comparison's report of the other run (when keeping the run). */
        private final Map<Long, BatchCause> causes = new HashMap<>();
        /** True from a start that ran no batch until the next data batch: the restarted query runs none before new data. */
        private boolean restarted;
        /** The processing time of a stop not reported yet (a start may follow at once), or null. */
        private Instant stoppedAt;
        private ScenarioPlan.Step step;
        private EventFile file;
        /** The failure of a batch that stopped the query, while it stays stopped; null else. */
        private StepFailure stoppedBy;
        /** The version the running step deploys, or null. */
        private String deploying;

        Steps(EventInputs<I> inputs, boolean keepRun) {
            this.inputs = inputs;
            this.keepRun = keepRun;
            this.restarted = checkpoint != null;
        }

        void runAll() {
            report.start(queryName, plan);
            inputs.warnings().forEach(report::warning);
            List<ScenarioPlan.Step> planned = plan.steps();
            for (int i = 0; i < planned.size(); i++) {
                step = planned.get(i);
                file = plan.file(step);
                sim = tracker.current;
                deploying = null;
                int failuresBefore = tracker.failures;
                try {
                    step.withRows(file == null ? List.<I>of() : inputs.take(file)).applyTo(this);
                } catch (StepFailure e) {
                    if (tracker.failures == failuresBefore || !plan.startsAfter(i)) {
                        throw e; // not a failed batch, or nothing later runs it again: the replay ends here
                    }
                    stoppedBy = e;
                    report.failedBatch(tracker.lastFailure, causeOfFailure(), Failures.describe(e).message());
                }
                stoppedBy = tracker.current.isRunning() ? null : stoppedBy;
            }
            sim = tracker.current;
            if (stoppedBy != null) {
                throw stoppedBy;
            }
            reportStop();
            boolean pending = sim.noDataBatchPending() && !query.timeMode().equals(TimeMode.ProcessingTime());
            report.end(totals, plan.inputCount(), sim.watermark(), sim.processingTime(), keysWithState(sim),
                    pending ? sim.nextTriggerTime() : null);
        }

        /** What ran the batch that failed in this step. */
        private BatchCause causeOfFailure() {
            if (file != null) {
                return BatchCause.file(file);
            }
            return deploying != null ? BatchCause.deploy(deploying) : BatchCause.start();
        }

        @Override
        public RunResult<K, I, O> batch(List<I> rows, Instant at) {
            if (stoppedBy != null) {
                throw stoppedBy; // a batch while the query is down: the replay ends with the failure that stopped it
            }
            reportStop();
            if (at != null && query.triggerIntervalMs() > 0 && at.isBefore(sim.nextTriggerTime())) {
                throw CliException.usage(file.label() + " at " + at + " (" + plan.where(step) + "): no trigger"
                        + " runs then; with a trigger interval of " + Duration.ofMillis(query.triggerIntervalMs())
                        + " the next one runs at " + sim.nextTriggerTime() + ": give that time or a later one, or"
                        + " at=current for the next trigger");
            }
            return reported(guarded(() -> at == null ? sim.runBatch(rows) : sim.runBatchAt(at, rows)),
                    BatchCause.file(file));
        }

        @Override
        public RunResult<K, I, O> addData(List<I> rows) {
            reportStop();
            boolean running = sim.isRunning();
            RunResult<K, I, O> ran = guarded(() -> sim.addData(rows));
            if (ran.batches().isEmpty()) {
                report.addWithoutBatch(file.label(), rows.size(), sim.waitingRows().size(), running
                        ? "the next trigger runs at " + sim.nextTriggerTime()
                        : "the query is stopped: its start reads them");
            }
            return reported(ran, BatchCause.file(file));
        }

        @Override
        public RunResult<K, I, O> tick(Instant to) {
            reportStop();
            boolean running = sim.isRunning();
            Instant nextTrigger = sim.nextTriggerTime();
            RunResult<K, I, O> ran = guarded(() -> sim.setProcessingTime(to));
            if (ran.batches().isEmpty()) {
                report.tickWithoutBatch(to, whyNoBatch(running, nextTrigger));
            }
            return reported(ran, BatchCause.tick(to));
        }

        @Override
        public RunResult<K, I, O> stop() {
            reportStop();
            sim.stop();
            stoppedAt = sim.processingTime();
            return new RunResult<>(List.of());
        }

        /**
         * The plan's start step: the query starts again from its checkpoint (a fresh processor's
         * driver pass runs) and its first trigger reads the rows waiting, if any.
         */
        @Override
        public RunResult<K, I, O> start() {
            stoppedAt = null;   // a restart: the start line says it all
            long nextBatchId = sim.nextBatchId();
            int waiting = sim.waitingRows().size();
            Instant watermark = sim.watermark();
            RunResult<K, I, O> ran;
            int failuresBefore = tracker.failures;
            try {
                ran = sim.start();
            } catch (RuntimeException e) {
                if (tracker.failures > failuresBefore) {
                    throw new StepFailure("start (" + plan.where(step) + ")", tracker.lastFailure.batchId(), e,
                            "at the start", step, null, plan.where(step));
                }
                if (e instanceof SparkThrowable) {
                    throw new StepFailure("restart before batch " + nextBatchId + " (" + plan.where(step) + ")", -1,
                            e, "the new processor's driver-side init/close pass", step, file, plan.where(step));
                }
                throw e;
            }
            restarted = ran.batches().isEmpty();
            report.restart(nextBatchId, watermark, sim.processingTime(), waiting);
            return reported(ran, BatchCause.start());
        }

        /**
         * The plan's deploy step: the version it names starts on the checkpoint
         * ({@link TwsSimulator#restartWith}); its first trigger runs the failed batch, if any, with
         * it, then reads the rows waiting.
         */
        @Override
        public RunResult<K, I, O> deploy(String version, TwsQuery<?, I, ?> ignored) {
            reportStop();
            Long rerun = stoppedBy == null ? null : tracker.lastFailure.batchId();
            report.deploy(version, sim.nextBatchId(), rerun, sim.waitingRows().size());
            tracker.record(true);
            deploying = version;
            try {
                sim.restartWith(versions.get(version));
            } catch (RuntimeException e) {
                tracker.record(false);
                if (e instanceof SparkThrowable || e instanceof NondeterministicBatchException) {
                    throw new StepFailure("deploy " + version + " (" + plan.where(step) + ")",
                            tracker.current.nextBatchId(), e, "at the deploy", step, null, plan.where(step));
                }
                throw e;
            } finally {
                sim = tracker.current;
            }
            deploying = null;
            List<BatchResult<K, I, O>> ran = tracker.committed;
            tracker.record(false);
            restarted = ran.isEmpty();
            return reported(new RunResult<>(ran), BatchCause.deploy(version));
        }

        private void reportStop() {
            if (stoppedAt != null) {
                report.stop(stoppedAt);
                stoppedAt = null;
            }
        }

        /**
         * The step's run; Spark's errors, a batch that differs when retried ({@code --check-retries}),
         * and the query's own code failing outside the processor (the key function, the input
         * encoder), which the simulator reports as {@link IllegalArgumentException}, fail the step.
         */
        private RunResult<K, I, O> guarded(Supplier<RunResult<K, I, O>> run) {
            try {
                return run.get();
            } catch (RuntimeException e) {
                if (e instanceof SparkThrowable || e instanceof NondeterministicBatchException
                        || e instanceof IllegalArgumentException) {
                    String where = file != null ? file.display() : step.planLine().replace(" to=", " to ");
                    throw new StepFailure(where, sim.nextBatchId(), e, "at query start", step, file, plan.where(step));
                }
                throw e;
            }
        }

        /** Reports the batches {@code ran}, each with its cause, and the state after the last if asked. */
        private RunResult<K, I, O> reported(RunResult<K, I, O> ran, BatchCause cause) {
            List<BatchResult<K, I, O>> batches = ran.batches();
            for (int b = 0; b < batches.size(); b++) {
                BatchResult<K, I, O> batch = batches.get(b);
                if (keepRun) {
                    causes.put(batch.batchId(), cause);
                }
                restarted &= !batch.hadInput();
                totals.add(batch);
                report.batch(batch, cause, settings.showState() && b == batches.size() - 1 ? dumps(sim) : null);
            }
            return ran;
        }

        private String whyNoBatch(boolean running, Instant nextTrigger) {
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
    }
}
