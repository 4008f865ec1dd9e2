package dev.twstester.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.Properties;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import dev.twstester.sim.SparkLine;

/**
 * The {@code twstester} command. Run it with the {@code ./twstester} launcher at the repository
 * root, which puts Spark on the classpath and sets Spark's JVM flags.
 *
 * <pre>{@code
 * int exit = TwsTesterCli.commandLine().execute("replay", "cart/", "--query", "com.acme.CartWatch");
 * }</pre>
 */
@Command(name = "twstester",
        mixinStandardHelpOptions = true,
        versionProvider = TwsTesterCli.Version.class,
        usageHelpAutoWidth = true,
        header = "A simulator of Apache Spark's transformWithState, and a live-Spark oracle.",
        description = {"", "Run \"twstester replay --help\" for how to replay event files."},
        subcommands = {ReplayCommand.class, CommandLine.HelpCommand.class},
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.OK_LINE, ExitCodes.DIFFERENCE_LINE, ExitCodes.USAGE_LINE,
            ExitCodes.INVALID_INPUT_LINE, ExitCodes.PROCESSOR_LINE, ExitCodes.INTERNAL_LINE})
public final class TwsTesterCli implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    public static void main(String[] args) {
        int exit = commandLine().execute(args);
        System.out.flush();
        System.exit(exit);
    }

    /**
     * The configured command line: exit codes from {@link ExitCodes} also for exceptions that escape
     * a command, reported in one line. ({@code new CommandLine(new TwsTesterCli())} behaves the same
     * for everything the commands report themselves.)
     */
    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new TwsTesterCli());
        cli.setExitCodeExceptionMapper(new ExitCodes());
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) ->
                Failures.report(e, commandLine.getErr(), parseResult.expandedArgs().contains("--stacktrace")
                        || parseResult.expandedArgs().contains("-x")));
        cli.setParameterExceptionHandler(TwsTesterCli::usageError);
        return cli;
    }

    /** A usage error in two lines: what is wrong (with suggestions for a misspelled option) and where help is. */
    private static int usageError(CommandLine.ParameterException e, String[] args) {
        CommandLine c = e.getCommandLine();
        PrintWriter err = c.getErr();
        err.println(e.getMessage());
        CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
        err.println("Try '" + c.getCommandSpec().qualifiedName() + " --help' for more information.");
        err.flush();
        return ExitCodes.USAGE;
    }

    /** Without a subcommand: the usage, and exit code 2. */
    @Override
    public Integer call() {
        throw new CommandLine.ParameterException(spec.commandLine(), "Missing command: say \"twstester replay ...\"");
    }

    /** {@code twstester 0.1.0 (simulates Spark 4.2.0 transformWithState)}: this build, and the Spark on the class path. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            Properties p = new Properties();
            try (InputStream in = TwsTesterCli.class.getResourceAsStream("version.properties")) {
                if (in != null) {
                    p.load(in);
                }
            } catch (IOException e) {
                // unknown version
            }
            return new String[] {"twstester " + p.getProperty("version", "(unknown version)")
                    + " (" + simulates(SparkLine.classPathVersion()) + ")"};
        }

        /** The Spark whose rules the simulator follows: the class path's, or the nearest modelled line. */
        static String simulates(String onClassPath) {
            if (SparkLine.warning(onClassPath).isEmpty()) {
                return "simulates Spark " + onClassPath + " transformWithState";
            }
            return "simulates Spark " + SparkLine.nearest(onClassPath) + " transformWithState, the nearest to Spark "
                    + onClassPath + " on the class path";
        }
    }
}
