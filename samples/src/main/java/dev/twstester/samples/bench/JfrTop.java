package dev.twstester.samples.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Hot frames of a JFR recording's {@code jdk.ExecutionSample} events on one thread (by default
 * JMH's worker thread), as
 * three top lists: the frame on top of the stack (self time); the innermost tester-core frame
 * ({@code dev.twstester.*} outside {@code dev.twstester.samples}), which charges library code
 * (Catalyst, serialization, collections) to the engine method that called it; and tester-core
 * methods anywhere on the stack (inclusive time).
 *
 * <pre>
 * java -cp ... dev.twstester.samples.bench.JfrTop target/bench/jfr/...simulatorFull.../profile.jfr [top] [thread]
 *   top      how many frames per list (default 15)
 *   thread   samples of threads whose name contains this (default jmh-worker; e.g. main for a
 *            -XX:StartFlightRecording of StartupMain)
 * </pre>
 */
public final class JfrTop {
    private JfrTop() {
    }

    /** Sample counts of one recording. */
    public record Profile(int samples, Map<String, Integer> self, Map<String, Integer> innermostCore,
            Map<String, Integer> inclusiveCore) {
    }

    public static void main(String[] args) {
        int top = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        String thread = args.length > 2 ? args[2] : "jmh-worker";
        print(Path.of(args[0]), read(Path.of(args[0]), thread), top, System.out);
    }

    /** The samples of JMH's worker thread. */
    public static Profile read(Path jfr) {
        return read(jfr, "jmh-worker");
    }

    /** The samples of threads whose name contains {@code threadContains}. */
    public static Profile read(Path jfr, String threadContains) {
        Map<String, Integer> self = new HashMap<>();
        Map<String, Integer> innermost = new HashMap<>();
        Map<String, Integer> inclusive = new HashMap<>();
        int samples = 0;
        try (RecordingFile file = new RecordingFile(jfr)) {
            while (file.hasMoreEvents()) {
                RecordedEvent e = file.readEvent();
                if (!e.getEventType().getName().equals("jdk.ExecutionSample")) {
                    continue;
                }
                var thread = e.getThread("sampledThread");
                if (thread == null || thread.getJavaName() == null || !thread.getJavaName().contains(threadContains)) {
                    continue;
                }
                RecordedStackTrace stack = e.getStackTrace();
                if (stack == null || stack.getFrames().isEmpty()) {
                    continue;
                }
                samples++;
                List<RecordedFrame> frames = stack.getFrames();
                self.merge(name(frames.get(0)), 1, Integer::sum);
                boolean innermostSeen = false;
                Set<String> seen = new HashSet<>();
                for (RecordedFrame f : frames) {
                    String cls = f.getMethod().getType().getName();
                    if (cls.startsWith("dev.twstester.") && !cls.startsWith("dev.twstester.samples.")) {
                        String n = name(f);
                        if (!innermostSeen) {
                            innermost.merge(n, 1, Integer::sum);
                            innermostSeen = true;
                        }
                        if (seen.add(n)) {
                            inclusive.merge(n, 1, Integer::sum);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + jfr, e);
        }
        return new Profile(samples, self, innermost, inclusive);
    }

    /** Every {@code *.jfr} file under {@code dir}, sorted. */
    public static List<Path> find(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(p -> p.toString().endsWith(".jfr")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void print(Path jfr, Profile p, int top, PrintStream out) {
        out.println("#### " + jfr);
        out.println();
        out.println(p.samples() + " execution samples.");
        list("Top frames (self)", p.self(), p.samples(), top, out);
        list("Innermost tester-core frame (self + the library code it calls)", p.innermostCore(), p.samples(), top, out);
        list("tester-core methods on the stack (inclusive)", p.inclusiveCore(), p.samples(), top, out);
    }

    private static void list(String title, Map<String, Integer> counts, int samples, int top, PrintStream out) {
        out.println();
        out.println("| " + title + " | samples | % |");
        out.println("|---|---:|---:|");
        List<Map.Entry<String, Integer>> sorted = new ArrayList<>(counts.entrySet());
        sorted.sort(Map.Entry.<String, Integer>comparingByValue(Comparator.reverseOrder()).thenComparing(Map.Entry.comparingByKey()));
        Map<String, Integer> shown = new LinkedHashMap<>();
        sorted.stream().limit(top).forEach(e -> shown.put(e.getKey(), e.getValue()));
        shown.forEach((name, n) -> out.printf("| `%s` | %d | %.1f |%n", name, n, 100.0 * n / Math.max(1, samples)));
    }

    private static String name(RecordedFrame f) {
        String cls = f.getMethod().getType().getName();
        String simple = cls.substring(cls.lastIndexOf('.') + 1);
        String pkg = cls.contains(".") ? cls.substring(0, cls.lastIndexOf('.')) : "";
        return abbreviate(pkg) + simple + "." + f.getMethod().getName() + (f.isJavaFrame() ? "" : " (native)");
    }

    /** {@code org.apache.spark.sql.catalyst} becomes {@code o.a.s.s.catalyst.}: the last package segment kept. */
    private static String abbreviate(String pkg) {
        if (pkg.isEmpty()) {
            return "";
        }
        String[] parts = pkg.split("\\.");
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < parts.length - 1; i++) {
            b.append(parts[i].charAt(0)).append('.');
        }
        return b.append(parts[parts.length - 1]).append('.').toString();
    }
}
