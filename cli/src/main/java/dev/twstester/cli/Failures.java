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

    /**
     * What went wrong, for stderr's line and the JSON failure record.
     *
     * @param exitCode   the exit code ({@link ExitCodes})
     * @param message    the one line stderr shows
     * @param traceHint  whether {@code --stacktrace} would show more
     * @param batchId    the batch that failed, or null (before any batch, or not a batch's failure)
     * @param key        the grouping key being processed, or null when not known
     * @param errorClass Spark's error class (condition), or null
     * @param file       the event file, or null
     * @param line       the event file's line (1-based), or 0
     * @param step       the plan step that failed, as its plan line ({@code input 003.jsonl at=current}), or null
     * @param stepFrom   where the plan gives that step ({@code scenario.txt:3}, {@code options}), or null
     */
    record Failure(int exitCode, String message, boolean traceHint, Long batchId, Object key, String errorClass,
            EventFile file, int line, String step, String stepFrom) {
        static Failure of(int exitCode, String message, boolean traceHint) {
            return new Failure(exitCode, message, traceHint, null, null, null, null, 0, null, null);
        }
    }

    /** Reports {@code failure} and returns its exit code. */
    static int report(Throwable failure, PrintWriter err, boolean stacktrace) {
        Failure f = describe(failure);
        print(f, failure, err, stacktrace);
        return f.exitCode();
    }

    /** Prints {@code f} (the description of {@code failure}) on stderr, with the stack trace if asked. */
    static void print(Failure f, Throwable failure, PrintWriter err, boolean stacktrace) {
        err.println(f.message() + (f.traceHint() && !stacktrace ? " (--stacktrace shows the stack trace)" : ""));
        if (stacktrace) {
            failure.printStackTrace(err);
        }
        err.flush();
    }

    /** What {@code failure} means: its exit code, line and, where known, batch, key, error class and file. */
    static Failure describe(Throwable failure) {
        if (failure instanceof CliException e) {
            return new Failure(e.exitCode(), e.getMessage(), false, null, null, null, e.file(), e.line(), null, null);
        } else if (failure instanceof StepFailure f
                && f.getCause() instanceof NondeterministicBatchException nondeterministic) {
            // the message names the batch and key and says what to look for; the stack trace is the simulator's
            return located(f, ExitCodes.PROCESSOR_FAILED, f.where() + ": " + oneLine(nondeterministic.getMessage()),
                    false, f.batchId() < 0 ? null : f.batchId(), null, null);
        } else if (failure instanceof NondeterministicBatchException) {
            return Failure.of(ExitCodes.PROCESSOR_FAILED, oneLine(failure.getMessage()), false);
        } else if (failure instanceof StepFailure f) {
            String line = f.where() + ": " + batchFailure(f.getCause(), f.batchId(), f.driverPass());
            Long batchId = f.batchId() < 0 ? null : f.batchId();
            Object key = null;
            String errorClass = f.getCause() instanceof SparkThrowable s ? s.getCondition() : null;
            if (f.getCause() instanceof ProcessorException p) {
                batchId = p.batchId() < 0 ? null : p.batchId();
                key = p.key().orElse(null);
            }
            return located(f, ExitCodes.PROCESSOR_FAILED, line, true, batchId, key, errorClass);
        } else if (failure instanceof LiveRunException e && sparkError(e) != null) {
            SparkThrowable s = sparkError(e);
            return new Failure(ExitCodes.PROCESSOR_FAILED, "live Spark: " + oneLine(e.getMessage()) + errorClass(s),
                    true, null, null, s.getCondition(), null, 0, null, null);
        } else if (failure instanceof LiveRunException e) {
            return Failure.of(ExitCodes.INTERNAL, "live Spark run failed: " + oneLine(e.getMessage()), true);
        } else if (failure instanceof SparkThrowable s) {
            return new Failure(ExitCodes.PROCESSOR_FAILED, oneLine(failure.getMessage()), true, null, null,
                    s.getCondition(), null, 0, null, null);
        }
        return Failure.of(ExitCodes.INTERNAL, "internal error: " + oneLine(String.valueOf(failure))
                + "; please report it with the output of --stacktrace", false);
    }

    private static Failure located(StepFailure f, int code, String line, boolean traceHint, Long batchId,
            Object key, String errorClass) {
        return new Failure(code, line, traceHint, batchId, key, errorClass, f.file(), 0,
                f.step() == null ? null : f.step().planLine(), f.planWhere());
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

    /** {@code s} on one line: line breaks and the spaces around them become one space. */
    static String oneLine(String s) {
        return s == null ? "" : s.replaceAll("\\s*\\R\\s*", " ").strip();
    }
}
