package dev.twstester.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The one way twstester's tests start another process: a child JVM running a main class with this
 * JVM's Spark flags and class path, or any command (the launcher script). Both output streams are
 * read as the process runs, and a process that outlives its timeout is killed and fails the test
 * naming the command.
 *
 * <pre>{@code
 * ChildJvm.Result r = ChildJvm.main(SparkLogsChild.class, "quiet")
 *         .flag("-Xmx1g")
 *         .property("twstester.logs", "on")
 *         .run();
 * assertThat(r.exit()).as(r.toString()).isZero();
 * }</pre>
 *
 * The Spark flags are the ones Surefire gives this JVM ({@code ${spark.jvm.flags}}: the
 * {@code --add-opens}, {@code -XX:+IgnoreUnrecognizedVMOptions} and {@code -Dio.netty...} Spark needs
 * on Java 17), without {@code --add-modules=jdk.incubator.vector}, whose start-up warning would land
 * in the child's output.
 */
public final class ChildJvm {
    private final List<String> command;
    private final List<String> flags = new ArrayList<>();
    private final List<String> args = new ArrayList<>();
    private final Map<String, String> environment = new LinkedHashMap<>();
    private final List<String> removedEnvironment = new ArrayList<>();
    private final boolean java;
    private String classPath = System.getProperty("java.class.path");
    private Path directory;
    private Path output;
    private Duration timeout = Duration.ofSeconds(300);

    private ChildJvm(List<String> command, boolean java) {
        this.command = command;
        this.java = java;
        if (java) {
            flags.addAll(sparkFlags());
        }
    }

    /** A child JVM running {@code mainClass} with {@code args}, this JVM's Spark flags and class path. */
    public static ChildJvm main(Class<?> mainClass, String... args) {
        ChildJvm child = new ChildJvm(List.of(mainClass.getName()), true);
        child.args.addAll(List.of(args));
        return child;
    }

    /** Any command, e.g. {@code bash twstester --version}. */
    public static ChildJvm command(List<String> command) {
        return new ChildJvm(List.copyOf(command), false);
    }

    /** The Spark flags of this JVM that a child needs (see the class comment). */
    public static List<String> sparkFlags() {
        List<String> out = new ArrayList<>();
        for (String argument : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if ((argument.startsWith("--add-") && !argument.contains("jdk.incubator"))
                    || argument.startsWith("-XX:+IgnoreUnrecognized") || argument.startsWith("-Dio.netty")
                    || argument.startsWith("-Duser.timezone")) {
                out.add(argument);
            }
        }
        return out;
    }

    /** A JVM flag, e.g. {@code -Xmx1g} or {@code -Xlog:class+load=info:file=...}. */
    public ChildJvm flag(String flag) {
        flags.add(Objects.requireNonNull(flag, "flag must not be null"));
        return this;
    }

    /** A system property of the child. */
    public ChildJvm property(String name, String value) {
        return flag("-D" + name + "=" + value);
    }

    /** The child's class path instead of this JVM's. */
    public ChildJvm classPath(String classPath) {
        this.classPath = Objects.requireNonNull(classPath, "classPath must not be null");
        return this;
    }

    /** The folder the process starts in. */
    public ChildJvm directory(Path folder) {
        this.directory = folder;
        return this;
    }

    /** An environment variable of the process. */
    public ChildJvm env(String name, String value) {
        environment.put(name, value);
        return this;
    }

    /** An environment variable this process has and the child must not. */
    public ChildJvm withoutEnv(String name) {
        removedEnvironment.add(name);
        return this;
    }

    /** Both output streams into {@code file} (for long runs) instead of the result's strings. */
    public ChildJvm outputTo(Path file) {
        this.output = file;
        return this;
    }

    /** How long the process may run (default 300 s). */
    public ChildJvm timeout(Duration timeout) {
        this.timeout = timeout;
        return this;
    }

    /** The command line the process runs. */
    public List<String> commandLine() {
        List<String> line = new ArrayList<>();
        if (java) {
            line.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            line.addAll(flags);
            line.add("-cp");
            line.add(classPath);
        }
        line.addAll(command);
        line.addAll(args);
        return line;
    }

    /** What a finished process printed and returned. */
    public record Result(int exit, String stdout, String stderr) {
        @Override
        public String toString() {
            return "exit " + exit + "\nstdout:\n" + stdout + "\nstderr:\n" + stderr;
        }
    }

    /**
     * Runs the process to its end. With {@link #outputTo} its output is in the file and the
     * result's strings are empty.
     *
     * @throws AssertionError when it outlives the timeout (it is killed)
     */
    public Result run() {
        List<String> line = commandLine();
        ProcessBuilder builder = new ProcessBuilder(line);
        if (directory != null) {
            builder.directory(directory.toFile());
        }
        builder.environment().putAll(environment);
        removedEnvironment.forEach(builder.environment()::remove);
        if (output != null) {
            builder.redirectErrorStream(true).redirectOutput(output.toFile());
        }
        try {
            Process process = builder.start();
            CompletableFuture<String> out = output == null ? drain(process.getInputStream())
                    : CompletableFuture.completedFuture("");
            CompletableFuture<String> err = output == null ? drain(process.getErrorStream())
                    : CompletableFuture.completedFuture("");
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(line + " did not end within " + timeout);
            }
            return new Result(process.exitValue(), out.join(), err.join());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + line, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + line + " ran", e);
        }
    }

    private static CompletableFuture<String> drain(InputStream in) {
        return CompletableFuture.supplyAsync(() -> {
            try (in) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
