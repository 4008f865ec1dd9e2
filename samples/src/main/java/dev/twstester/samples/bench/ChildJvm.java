package dev.twstester.samples.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Starts a main class of this module in a new JVM with this JVM's flags and class path (as JMH
 * forks do) and measures the wall clock from {@code start()} to its exit.
 */
final class ChildJvm {
    /** What a child printed and how long it ran. */
    record Result(int exitCode, String stdout, String stderr, double wallMs) {
        /** The value of {@code name=} on the line starting with {@code prefix}. */
        long value(String prefix, String name) {
            for (String line : stdout.split("\n")) {
                if (line.startsWith(prefix)) {
                    for (String part : line.substring(prefix.length()).trim().split(" ")) {
                        if (part.startsWith(name + "=")) {
                            return Long.parseLong(part.substring(name.length() + 1));
                        }
                    }
                }
            }
            throw new IllegalStateException("no " + name + "= on a " + prefix + " line in the child's output:\n" + stdout
                    + "\nstderr:\n" + stderr);
        }
    }

    private ChildJvm() {
    }

    /** This JVM's flags: heap, stack and Spark's {@code --add-opens}, as the exec:exec@bench command gives them. */
    static List<String> hostFlags() {
        List<String> flags = new ArrayList<>();
        for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            // agents and debuggers of the host (an IDE, surefire) are not the child's business
            if (!arg.startsWith("-javaagent") && !arg.startsWith("-agentlib") && !arg.startsWith("-XX:StartFlightRecording")) {
                flags.add(arg);
            }
        }
        return flags;
    }

    static Result run(List<String> flags, Class<?> main, List<String> args, long timeoutSeconds) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(flags);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(args);
        try {
            long start = System.nanoTime();
            Process p = new ProcessBuilder(command).start();
            CompletableFuture<String> out = drain(p.getInputStream());
            CompletableFuture<String> err = drain(p.getErrorStream());
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(main.getSimpleName() + " " + args + " did not end within " + timeoutSeconds + " s");
            }
            double wallMs = (System.nanoTime() - start) / 1e6;
            Result r = new Result(p.exitValue(), out.join(), err.join(), wallMs);
            if (r.exitCode() != 0) {
                throw new IllegalStateException(main.getSimpleName() + " " + args + " exited with " + r.exitCode()
                        + ":\n" + r.stdout() + r.stderr());
            }
            return r;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
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

    /** The median of {@code v} (the mean of the middle two for an even count). */
    static double median(double[] v) {
        double[] s = v.clone();
        java.util.Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    /** The median of {@code v}, as {@link #median(double[])}. */
    static double median(long[] v) {
        return median(java.util.Arrays.stream(v).asDoubleStream().toArray());
    }
}
