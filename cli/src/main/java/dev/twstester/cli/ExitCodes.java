package dev.twstester.cli;

import org.apache.spark.SparkThrowable;

import dev.twstester.sim.NondeterministicBatchException;

import picocli.CommandLine;

/**
 * The exit codes of {@code twstester}, in one place: the constants, the lines {@code --help}
 * shows, and the mapping from an exception to its code.
 *
 * <table>
 *   <caption>Exit codes</caption>
 *   <tr><td>0</td><td>the replay ran (and, with {@code --live} or {@code --expect}, matched)</td></tr>
 *   <tr><td>1</td><td>live Spark (a batch or the end state) or the expected run differs from the
 *       simulator</td></tr>
 *   <tr><td>2</td><td>usage: a bad option, path, query class or replay plan</td></tr>
 *   <tr><td>3</td><td>an input file is not valid for the query's input schema</td></tr>
 *   <tr><td>4</td><td>the processor threw (or Spark raised an error class) in a batch, or with
 *       {@code --check-retries} a batch run twice differed</td></tr>
 *   <tr><td>70</td><td>internal error of twstester</td></tr>
 * </table>
 *
 * <p>With {@code --format json} a failure keeps its code, and stdout's last line is its record,
 * {@code {"failure":{"exitCode":4,...}}} ({@link JsonReport}).
 */
public final class ExitCodes implements CommandLine.IExitCodeExceptionMapper {
    public static final int OK = 0;
    public static final int DIFFERENCE = 1;
    public static final int USAGE = 2;
    public static final int INVALID_INPUT = 3;
    public static final int PROCESSOR_FAILED = 4;
    public static final int INTERNAL = 70;

    /** The exit-code table of {@code --help}: {@code code:description}. */
    static final String HEADING = "%nExit codes:%n";
    static final String OK_LINE = "0:the replay ran (with --live or --expect: and matched)";
    static final String DIFFERENCE_LINE = "1:live Spark (--live: a batch or the end state) or the expected run"
            + " (--expect) differs";
    static final String USAGE_LINE = "2:usage: bad option, path, --query class or replay plan";
    static final String INVALID_INPUT_LINE = "3:an input file is not valid JSON lines for the query's input schema";
    static final String PROCESSOR_LINE = "4:the processor threw or Spark raised an error class in a batch, or"
            + " (--check-retries) a batch run twice differed";
    static final String INTERNAL_LINE = "70:internal error of twstester (rerun with --stacktrace and report it)";

    @Override
    public int getExitCode(Throwable exception) {
        return of(exception);
    }

    /** The exit code for {@code exception}: its own for a {@link CliException}, else by type. */
    static int of(Throwable exception) {
        if (exception instanceof CliException e) {
            return e.exitCode();
        }
        if (exception instanceof CommandLine.ParameterException) {
            return USAGE;
        }
        if (exception instanceof SparkThrowable || exception instanceof NondeterministicBatchException) {
            return PROCESSOR_FAILED;
        }
        return INTERNAL;
    }
}
