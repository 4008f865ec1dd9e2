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

    /**
     * Compiles, into {@code dir/classes}, a class {@code pkg.Carts} whose static method {@code method}
     * returns the cart sample's query, and returns that class folder (a folder not on the test classpath).
     */
    static Path compileCartsQuery(Path dir, String pkg, String method) throws IOException {
        Path src = Files.createDirectories(dir.resolve("src/" + pkg));
        Path classes = Files.createDirectories(dir.resolve("classes"));
        Files.writeString(src.resolve("Carts.java"), "package " + pkg + ";\n"
                + "public class Carts {\n"
                + "    public static dev.twstester.TwsQuery<String, ?, ?> " + method + "() {\n"
                + "        return dev.twstester.samples.cart.CartWatch.query();\n"
                + "    }\n"
                + "}\n");
        javax.tools.JavaCompiler javac = javax.tools.ToolProvider.getSystemJavaCompiler();
        StringWriter log = new StringWriter();
        boolean compiled = javac.getTask(new PrintWriter(log), null, null,
                java.util.List.of("-d", classes.toString(), "-classpath", System.getProperty("java.class.path")), null,
                javac.getStandardFileManager(null, null, null).getJavaFileObjects(src.resolve("Carts.java").toFile()))
                .call();
        if (!compiled) {
            throw new AssertionError("could not compile " + pkg + ".Carts: " + log);
        }
        return classes;
    }
}
