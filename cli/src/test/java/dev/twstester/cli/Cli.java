package dev.twstester.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;

import picocli.CommandLine;

/** Runs {@code twstester} in-process with captured stdout and stderr. */
final class Cli {
    private Cli() {}

    /** What one run printed and returned. */
    record Result(int exitCode, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    /** {@code new CommandLine(new TwsTesterCli())}, as a user embedding the command would build it. */
    static Result run(String... args) {
        return run(new CommandLine(new TwsTesterCli()), args);
    }

    /** {@link TwsTesterCli#commandLine()}, as the launcher runs it. */
    static Result runConfigured(String... args) {
        return run(TwsTesterCli.commandLine(), args);
    }

    private static Result run(CommandLine cli, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = cli.setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true)).execute(args);
        return new Result(exit, normalize(out), normalize(err));
    }

    private static String normalize(StringWriter w) {
        return w.toString().replace(System.lineSeparator(), "\n");
    }

    /** A folder of test resources, e.g. {@code cart}. */
    static Path resource(String folder) {
        URL url = Cli.class.getClassLoader().getResource(folder);
        if (url == null) {
            throw new IllegalStateException("no test resource folder " + folder);
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Copies the test resource folder's files into {@code target}, to change them there. */
    static Path copy(String folder, Path target) throws IOException {
        try (var files = Files.list(resource(folder))) {
            for (Path p : files.toList()) {
                try (InputStream in = Files.newInputStream(p)) {
                    Files.copy(in, target.resolve(p.getFileName().toString()));
                }
            }
        }
        return target;
    }
}
