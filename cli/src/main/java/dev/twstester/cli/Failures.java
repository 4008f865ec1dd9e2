package dev.twstester.cli;

import java.io.PrintWriter;

import org.apache.spark.SparkThrowable;

import dev.twstester.ProcessorException;
import dev.twstester.sim.NondeterministicBatchException;
import dev.twstester.spark.LiveRunException;

/**
 * Turns what went wrong into one line on stderr (plus the stack trace with {@code --stacktrace})
 * and an exit code from {@link ExitCodes}.
 */
final class Failures {
    private Failures() {}

    /** Reports {@code failure} and returns its exit code. */
    static int report(Throwable failure, PrintWriter err, boolean stacktrace) {
        int code;
        String line;
        boolean traceHint = false;
        if (failure instanceof CliException e) {
            code = e.exitCode();
            line = e.getMessage();
        } else if (failure instanceof Replay.StepFailure f
                && f.getCause() instanceof NondeterministicBatchException nondeterministic) {
            // the message names the batch and key and says what to look for; the stack trace is the simulator's
            code = ExitCodes.PROCESSOR_FAILED;
            line = f.where() + ": " + oneLine(nondeterministic.getMessage());
        } else if (failure instanceof NondeterministicBatchException) {
            code = ExitCodes.PROCESSOR_FAILED;
            line = oneLine(failure.getMessage());
        } else if (failure instanceof Replay.StepFailure f) {
            code = ExitCodes.PROCESSOR_FAILED;
            line = f.where() + ": " + batchFailure(f.getCause(), f.batchId(), f.driverPass());
            traceHint = true;
        } else if (failure instanceof LiveRunException e && sparkError(e) != null) {
            code = ExitCodes.PROCESSOR_FAILED;
            line = "live Spark: " + oneLine(e.getMessage()) + errorClass(sparkError(e));
            traceHint = true;
        } else if (failure instanceof LiveRunException e) {
            code = ExitCodes.INTERNAL;
            line = "live Spark run failed: " + oneLine(e.getMessage());
            traceHint = true;
        } else if (failure instanceof SparkThrowable) {
            code = ExitCodes.PROCESSOR_FAILED;
            line = oneLine(failure.getMessage());
            traceHint = true;
        } else {
            code = ExitCodes.INTERNAL;
            line = "internal error: " + oneLine(String.valueOf(failure)) + "; please report it with the output of"
                    + " --stacktrace";
        }
        err.println(line + (traceHint && !stacktrace ? " (--stacktrace shows the stack trace)" : ""));
        if (stacktrace) {
            failure.printStackTrace(err);
        }
        err.flush();
        return code;
    }

    /** {@code batch 2: handleInputRows threw for key bo: IllegalStateException: no hats [ERROR_CLASS]}. */
    private static String batchFailure(Throwable cause, long batchId, String driverPass) {
        if (cause instanceof ProcessorException p) {
            String batch = p.batchId() < 0 ? driverPass : "batch " + p.batchId();
            String key = p.key().map(k -> " for key " + RowFormat.anyKeyText(k)).orElse("");
            Throwable user = p.getCause();
            String thrown = user == null ? oneLine(p.getMessage())
                    : user.getClass().getName() + (user.getMessage() == null ? "" : ": " + oneLine(user.getMessage()));
            String how = p.getCondition() == null ? " (while Spark consumed the returned iterator)" : "";
            return batch + ": " + p.function() + " threw" + key + how + ": " + thrown + errorClass(p);
        }
        String batch = batchId < 0 ? driverPass : "batch " + batchId;
        return batch + ": " + oneLine(cause.getMessage());
    }

    private static String errorClass(SparkThrowable t) {
        return t.getCondition() == null ? "" : " [" + t.getCondition() + "]";
    }

    private static SparkThrowable sparkError(Throwable t) {
        for (Throwable c = t.getCause(); c != null; c = c.getCause()) {
            if (c instanceof SparkThrowable s && s.getCondition() != null) {
                return s;
            }
        }
        return null;
    }

    private static String oneLine(String s) {
        return JsonLinesReader.oneLine(s);
    }
}
