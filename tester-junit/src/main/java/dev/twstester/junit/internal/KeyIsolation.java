package dev.twstester.junit.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.extension.ExtensionConfigurationException;

import dev.twstester.Scenario;
import dev.twstester.report.KeyIsolationCheck;

/**
 * Internal, not API: may change in any release.
 *
 * <p>{@code @Simulator(checkKeyIsolation = true)} after a test: the steps the test's simulator
 * ran, re-run through {@link KeyIsolationCheck} at 1, 2, 3, 5 and 8 shuffle partitions. Calls up
 * to the first failing one are checked (a test may end with a call it expects to fail); a call
 * that has no scenario step (e.g. {@code advanceWatermarkTo}, a state write) is a configuration
 * error, as for the Spark comparison.
 */
public final class KeyIsolation {
    /** The annotation setting, as the messages name it. */
    public static final String OPTION = "@Simulator(checkKeyIsolation = true)";

    private KeyIsolation() {}

    /** Empty when no processor field carried data across keys in {@code recorder}'s steps, else the check's report. */
    public static <K, I, O> Optional<String> problems(Recorder<K, I, O> recorder) {
        List<Scenario.Step<I>> steps = new ArrayList<>();
        Call<K, I, O> failed = null;
        for (Call<K, I, O> call : recorder.calls()) {
            if (call.error() != null) {
                failed = call;
                break;
            }
            if (call.notReplayable() != null) {
                throw new ExtensionConfigurationException(OPTION + ": simulator '" + recorder.name() + "' call #"
                        + call.number() + " " + call.description() + " cannot be re-run as a scenario: "
                        + call.notReplayable() + "; or check this test without it (checkKeyIsolation = false)");
            }
            steps.addAll(call.steps());
        }
        if (steps.isEmpty()) {
            return Optional.empty();
        }
        String what = "the test's " + steps.size() + (steps.size() == 1 ? " step" : " steps")
                + (failed == null ? "" : " before call #" + failed.number() + " " + failed.description()
                        + ", which failed,")
                + " re-run with 1, 2, 3, 5 and 8 shuffle partitions";
        KeyIsolationCheck.Report report;
        try {
            report = KeyIsolationCheck.run(recorder.query(), new Scenario<>(steps));
        } catch (RuntimeException e) {
            return Optional.of(OPTION + ": simulator '" + recorder.name() + "': " + what + " failed: "
                    + Timelines.firstLine(e) + "; the test's own run did not, so which keys share a processor "
                    + "instance changes what the processor does");
        }
        if (report.isolated()) {
            return Optional.empty();
        }
        return Optional.of(OPTION + ": simulator '" + recorder.name() + "' (" + what + "): " + report);
    }
}
