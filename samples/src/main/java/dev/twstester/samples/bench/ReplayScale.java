package dev.twstester.samples.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Event files for measuring {@code twstester replay} at scale: N events in F JSON-lines files
 * ({@code 00001.jsonl}, ...), for a sample whose state stays small however many events there are.
 *
 * <pre>
 * java -cp samples/target/classes dev.twstester.samples.bench.ReplayScale generate DIR EVENTS FILES [counts|cart] [KEYS] [SEED]
 *   counts (default)  {"value":"key-00042"} lines for dev.twstester.samples.counts.RunningCount:
 *                     one count per key, KEYS keys (default 10000)
 *   cart              {"userId":"u00042","event":"add","item":"item-7","ts":"..."} lines for
 *                     dev.twstester.samples.cart.CartWatch: KEYS users (default 10000), event time
 *                     rising one second per event (no row is late, 10% are checkouts, so carts
 *                     stay small and idle ones are flagged by the watermark's timers)
 *   SEED              the random seed (default 1): the same arguments write the same files
 * </pre>
 * then, e.g. for 10,000,000 events in 50 files:
 * <pre>
 * JAVA_OPTS=-Xmx1g /usr/bin/time -v ./twstester replay DIR --query dev.twstester.samples.counts.RunningCount -q &gt; /dev/null
 * </pre>
 * The folder must not exist or be empty, so that an earlier run's files do not mix in.
 */
public final class ReplayScale {
    private ReplayScale() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 4 || !args[0].equals("generate")) {
            System.err.println("usage: ReplayScale generate DIR EVENTS FILES [counts|cart] [KEYS] [SEED]");
            System.exit(2);
        }
        Path dir = Path.of(args[1]);
        long events = Long.parseLong(args[2]);
        int files = Integer.parseInt(args[3]);
        String kind = args.length > 4 ? args[4] : "counts";
        int keys = args.length > 5 ? Integer.parseInt(args[5]) : 10_000;
        long seed = args.length > 6 ? Long.parseLong(args[6]) : 1L;
        if (events < 0 || files < 1 || keys < 1 || !(kind.equals("counts") || kind.equals("cart"))) {
            System.err.println("ReplayScale: EVENTS >= 0, FILES >= 1, KEYS >= 1 and counts or cart, please");
            System.exit(2);
        }
        long started = System.nanoTime();
        long bytes = generate(dir, events, files, kind, keys, seed);
        System.err.printf(Locale.ROOT, "ReplayScale: %d %s events in %d files (%d keys, seed %d), %.1f MB in %s, %.1f s%n",
                events, kind, files, keys, seed, bytes / 1e6, dir, (System.nanoTime() - started) / 1e9);
    }

    /** Writes the files; returns their total size in bytes. */
    static long generate(Path dir, long events, int files, String kind, int keys, long seed) throws IOException {
        Files.createDirectories(dir);
        try (var listing = Files.list(dir)) {
            if (listing.findAny().isPresent()) {
                throw new IOException(dir + " is not empty; give a new folder");
            }
        }
        SplittableRandom random = new SplittableRandom(seed);
        Instant start = Instant.parse("2024-05-01T00:00:00Z");
        long written = 0;
        long bytes = 0;
        StringBuilder line = new StringBuilder(128);
        for (int f = 0; f < files; f++) {
            long inFile = events / files + (f < events % files ? 1 : 0);
            Path file = dir.resolve(String.format(Locale.ROOT, "%05d.jsonl", f + 1));
            try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                for (long i = 0; i < inFile; i++, written++) {
                    line.setLength(0);
                    int key = random.nextInt(keys);
                    if (kind.equals("counts")) {
                        line.append("{\"value\":\"key-").append(pad(key)).append("\"}");
                    } else {
                        boolean checkout = random.nextInt(10) == 0;
                        line.append("{\"userId\":\"u").append(pad(key)).append("\",\"event\":\"")
                                .append(checkout ? "checkout" : "add").append('"');
                        if (!checkout) {
                            line.append(",\"item\":\"item-").append(random.nextInt(100)).append('"');
                        }
                        line.append(",\"ts\":\"").append(start.plusSeconds(written)).append("\"}");
                    }
                    line.append('\n');
                    out.append(line);
                    bytes += line.length();
                }
            }
        }
        return bytes;
    }

    private static String pad(int key) {
        String s = Integer.toString(key);
        return s.length() >= 5 ? s : "00000".substring(s.length()) + s;
    }
}
