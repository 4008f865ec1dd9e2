package dev.twstester.junit.internal;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;

import dev.twstester.BatchResult;
import dev.twstester.RunComparison;
import dev.twstester.RunDifference;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.spark.LiveRunException;
import dev.twstester.spark.LiveRunner;

/**
 * Internal, not API: may change in any release.
 *
 * <p>Replays a recorded simulator's calls on live Spark as one {@link Scenario} and compares the
 * runs batch by batch. A call without a live equivalent is a configuration error; when a call
 * failed on the simulator, live Spark must fail there too, with the same error class.
 */
public final class SparkComparison {
    /** How a not-replayable call's message ends: the way out of a comparison asked for by the annotation. */
    public static final String LEAVE_OUT = "; or leave this test out of the comparison (compareWithSpark = false)";

    private SparkComparison() {}

    /** Empty when live Spark ran the same batches, else the difference as a failure message. */
    public static <K, I, O> Optional<String> difference(Recorder<K, I, O> recorder) {
        List<Call<K, I, O>> calls = recorder.calls();
        Scenario<I> scenario = scenario(recorder, calls);
        if (scenario.steps().isEmpty()) {
            return Optional.empty();
        }
        Call<K, I, O> failed = calls.stream().filter(c -> c.error() != null).findFirst().orElse(null);
        List<BatchResult<K, I, O>> simulated = new ArrayList<>();
        calls.forEach(c -> simulated.addAll(c.batches()));
        String header = "simulator '" + recorder.name() + "' and live Spark differ on this test's calls";
        RunResult<K, I, O> live;
        try {
            live = LiveRunner.of(recorder.query()).run(scenario);
        } catch (LiveRunException e) {
            if (failed == null) {
                return Optional.of(header + ": live Spark failed, the simulator did not\n  spark: "
                        + Timelines.firstLine(ErrorClasses.carrier(e)));
            }
            return sameFailure(header, failed.error(), e, simulated);
        }
        if (failed != null) {
            return Optional.of(header + ": call #" + failed.number() + " " + failed.description()
                    + " failed on the simulator, live Spark ran it\n  simulator: " + Timelines.firstLine(failed.error()));
        }
        return RunComparison.simulatorVsSpark().firstDifference(new RunResult<>(simulated), live)
                .map(d -> header + "\n" + d.message());
    }

    private static <K, I, O> Scenario<I> scenario(Recorder<K, I, O> recorder, List<Call<K, I, O>> calls) {
        // with a zero interval in ProcessingTime mode (of any operator), live Spark runs a batch only when the clock moves
        boolean processingTime = recorder.query().operators().stream()
                .anyMatch(op -> op.timeMode().equals(TimeMode.ProcessingTime()))
                && recorder.query().triggerIntervalMs() == 0;
        List<Scenario.Step<I>> steps = new ArrayList<>();
        long clock = 0;
        Call<K, I, O> failedAt = null;
        for (Call<K, I, O> call : calls) {
            if (call.notReplayable() != null) {
                throw notReplayable(recorder, call, call.notReplayable());
            }
            if (failedAt != null && !call.steps().isEmpty()) {
                throw notReplayable(recorder, call, "live Spark stops a query at its first failing batch, and call #"
                        + failedAt.number() + " failed; end the test after the failing call");
            }
            for (Scenario.Step<I> step : call.steps()) {
                StepTime time = step.applyTo(new StepTime.Reader<>());
                Instant at = time.at();
                if (processingTime && time.input() && (at == null || at.toEpochMilli() <= clock)) {
                    throw notReplayable(recorder, call, "in ProcessingTime mode with a zero trigger interval live "
                            + "Spark runs a batch only when the clock moves, so each input needs a processing time "
                            + "later than the one before; use sim.runBatchAt(time, rows), or give the query a "
                            + "trigger interval");
                }
                clock = at == null ? clock : at.toEpochMilli();
                steps.add(step);
            }
            failedAt = call.error() != null ? call : failedAt;
        }
        return new Scenario<>(steps);
    }

    /** A step's processing time (an input's {@code at}, a tick's {@code to}, else null), and whether it is an input. */
    private record StepTime(boolean input, Instant at) {
        private static final class Reader<I> implements Scenario.StepTarget<I, StepTime> {
            @Override
            public StepTime batch(List<I> rows, Instant at) {
                return new StepTime(true, at);
            }

            @Override
            public StepTime addData(List<I> rows) {
                return new StepTime(false, null);
            }

            @Override
            public StepTime tick(Instant to) {
                return new StepTime(false, to);
            }

            @Override
            public StepTime stop() {
                return new StepTime(false, null);
            }

            @Override
            public StepTime start() {
                return new StepTime(false, null);
            }

            @Override
            public StepTime deploy(String version, TwsQuery<?, I, ?> query) {
                return new StepTime(false, null);
            }
        }
    }

    private static ExtensionConfigurationException notReplayable(Recorder<?, ?, ?> recorder, Call<?, ?, ?> call,
            String why) {
        return new ExtensionConfigurationException("compareWithSpark: simulator '" + recorder.name() + "' call #"
                + call.number() + " " + call.description() + " cannot be replayed on live Spark: " + why + LEAVE_OUT);
    }

    private static <K, I, O> Optional<String> sameFailure(String header, RuntimeException simError, LiveRunException e,
            List<BatchResult<K, I, O>> simulated) {
        String simCondition = ErrorClasses.of(simError);
        String liveCondition = ErrorClasses.of(e);
        if (!Objects.equals(simCondition, liveCondition)) {
            return Optional.of(header + ": both failed, with different errors\n  simulator: [" + simCondition + "] "
                    + Timelines.firstLine(simError) + "\n  spark:     [" + liveCondition + "] "
                    + Timelines.firstLine(ErrorClasses.carrier(e)));
        }
        @SuppressWarnings({"unchecked", "rawtypes"})
        RunResult<?, ?, ?> completed = new RunResult(e.completed());
        return RunComparison.simulatorVsSpark().firstDifference(new RunResult<>(simulated), completed)
                .map(RunDifference::message).map(m -> header + " (before the batch that failed on both)\n" + m);
    }
}
