package dev.twstester.testing;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * twstester's own fuzzing (no jqwik): hostile variants of a valid input from a seeded
 * {@link SplittableRandom}, and a runner that feeds each to a reader with a timeout, naming the
 * seed and the case in every failure.
 *
 * <pre>{@code
 * Mutations fuzz = Mutations.seeded("event files");            // -Dtwstester.fuzz.seed=... to repeat a run
 * fuzz.run(Mutations.count(10_000), random -> {                   // -Dtwstester.fuzz.scale=10 for 10 times as many
 *     byte[] input = fuzz.mutate(valid, random);
 *     return () -> check(reader.read(input));                    // an AssertionError names the seed and case
 * });
 * }</pre>
 *
 * The mutations: bit flips, truncation, deleted and repeated ranges, inserted byte order marks,
 * invalid UTF-8, {@code NaN} / {@code Infinity} tokens, huge and 1,001-digit numbers, duplicate
 * fields, nesting up to 3,000 levels, control characters, and spliced lines (joined, repeated,
 * swapped or split).
 */
public final class Mutations {
    /** Each case must finish in this time (the cases run on a thread of their own; a hang fails the case). */
    public static final long TIMEOUT_SECONDS = 20;

    private static final byte[][] INSERTS = {
        {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, {(byte) 0xFF}, {(byte) 0xC3}, {(byte) 0xC0, (byte) 0xAF},
        {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xE2, (byte) 0x82}, {(byte) 0xF5, (byte) 0x80}, {0},
        {1}, {'\r'}, {'\n'}, {'\u000B'}, bytes("NaN"), bytes("-Infinity"), bytes("Infinity"), bytes("+INF"),
        bytes("\"NaN\""), bytes("1e400"), bytes("-1e-400"), bytes("9223372036854775808"),
        bytes("1".repeat(1001)), bytes("0." + "9".repeat(400)), bytes("-0"), bytes("null"), bytes("\"\\ud800\""),
        bytes("\"\\u0000\""), bytes(","), bytes("}"), bytes("]"), bytes("{"), bytes("\""), bytes("\\"),
        bytes("#"), bytes(" "), bytes("="), bytes("at="), bytes("to="),
    };

    private final String what;
    private final long seed;

    private Mutations(String what, long seed) {
        this.what = what;
        this.seed = seed;
    }

    /**
     * A fuzzer of {@code what}: its seed {@code -Dtwstester.fuzz.seed} when given, a new one with
     * {@code -Dtwstester.fuzz.seed=random} (printed on failure), else a fixed seed of {@code what}, so that
     * {@code mvn verify} checks the same inputs at every run.
     */
    public static Mutations seeded(String what) {
        String given = System.getProperty("twstester.fuzz.seed");
        long seed = given == null ? what.hashCode() * 0x9E3779B97F4A7C15L
                : given.equals("random") ? new SplittableRandom().nextLong() : Long.parseLong(given);
        return new Mutations(what, seed);
    }

    /** {@code base} times {@code -Dtwstester.fuzz.scale} (1 unless given): the count for a longer local run. */
    public static int count(int base) {
        return Math.multiplyExact(base, Integer.getInteger("twstester.fuzz.scale", 1));
    }

    public long seed() {
        return seed;
    }

    /** One case: given its own random, the check to run on the case's thread. */
    public interface Case {
        Runnable make(SplittableRandom random);
    }

    /**
     * Runs {@code count} cases, each with a random split from the seed, one after another on one
     * other thread, which this thread watches: a case still running after {@link #TIMEOUT_SECONDS}
     * fails the run. The first failure is rethrown as an {@link AssertionError} naming the seed and
     * case (rerun with {@code -Dtwstester.fuzz.seed=...}).
     */
    public void run(int count, Case make) {
        SplittableRandom random = new SplittableRandom(seed);
        AtomicInteger current = new AtomicInteger(-1);
        AtomicLong started = new AtomicLong(System.nanoTime());
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread worker = new Thread(() -> {
            try {
                for (int i = 0; i < count; i++) {
                    Runnable check = make.make(random.split());
                    started.set(System.nanoTime());
                    current.set(i);
                    check.run();
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "twstester-fuzz");
        worker.setDaemon(true);
        worker.start();
        try {
            while (worker.isAlive()) {
                worker.join(200);
                long running = System.nanoTime() - started.get();
                if (worker.isAlive() && running > TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS)) {
                    worker.interrupt();
                    throw new AssertionError(where(current.get(), count) + ": still running after " + TIMEOUT_SECONDS
                            + " s");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(what + ": interrupted", e);
        }
        if (failure.get() != null) {
            throw new AssertionError(where(current.get(), count) + ": " + failure.get(), failure.get());
        }
    }

    private String where(int i, int count) {
        return what + " case " + (i + 1) + " of " + count + ", seed " + seed + " (rerun with -Dtwstester.fuzz.seed=" + seed
                + ")";
    }

    /** {@code valid} with one to three mutations. */
    public byte[] mutate(byte[] valid, SplittableRandom random) {
        byte[] out = valid;
        int n = 1 + random.nextInt(3);
        for (int i = 0; i < n; i++) {
            out = mutateOnce(out, random);
        }
        return out;
    }

    private static byte[] mutateOnce(byte[] in, SplittableRandom random) {
        int at = in.length == 0 ? 0 : random.nextInt(in.length + 1);
        switch (random.nextInt(9)) {
            case 0: {
                if (in.length == 0) {
                    return in;
                }
                byte[] out = in.clone();
                int i = random.nextInt(in.length);
                out[i] ^= (byte) (1 << random.nextInt(8));
                return out;
            }
            case 1:
                return Arrays.copyOf(in, at);
            case 2:
                return insert(in, at, INSERTS[random.nextInt(INSERTS.length)]);
            case 3:
                return insert(in, at, duplicateField(in, at));
            case 4: {
                int depth = 1 + random.nextInt(3000);
                String open = random.nextBoolean() ? "[" : "{\"a\":";
                return insert(in, at, bytes(open.repeat(depth) + (random.nextBoolean() ? "1"
                        + (open.equals("[") ? "]" : "}").repeat(depth) : "")));
            }
            case 5: {
                int length = random.nextInt(Math.max(1, in.length - at + 1));
                byte[] out = new byte[in.length - length];
                System.arraycopy(in, 0, out, 0, at);
                System.arraycopy(in, at + length, out, at, in.length - at - length);
                return out;
            }
            case 6: {
                int length = random.nextInt(Math.max(1, Math.min(64, in.length - at + 1)));
                return insert(in, at, Arrays.copyOfRange(in, at, at + length));
            }
            case 7:
                return spliceLines(in, random);
            default:
                return insert(in, at, new byte[] {(byte) random.nextInt(256)});
        }
    }

    /** A copy of the {@code "name":value,} that starts nearest after {@code at}, to insert again there. */
    private static byte[] duplicateField(byte[] in, int at) {
        String text = new String(in, StandardCharsets.ISO_8859_1);
        int start = text.indexOf('"', at);
        if (start < 0) {
            start = text.indexOf('"');
        }
        if (start < 0) {
            return bytes("\"s\":\"dup\",");
        }
        int end = text.indexOf(',', start);
        int close = text.indexOf('}', start);
        end = end < 0 || (close >= 0 && close < end) ? close : end;
        return end < 0 ? bytes("\"s\":\"dup\",") : (text.substring(start, end) + ",").getBytes(StandardCharsets.ISO_8859_1);
    }

    /** The lines joined, repeated, swapped or split. */
    private static byte[] spliceLines(byte[] in, SplittableRandom random) {
        List<String> lines = new ArrayList<>(List.of(new String(in, StandardCharsets.ISO_8859_1).split("\n", -1)));
        if (lines.size() < 2) {
            return in;
        }
        int i = random.nextInt(lines.size() - 1);
        switch (random.nextInt(4)) {
            case 0 -> lines.set(i, lines.get(i) + lines.remove(i + 1));
            case 1 -> lines.add(i, lines.get(i));
            case 2 -> lines.set(i, lines.set(i + 1, lines.get(i)));
            default -> {
                String line = lines.get(i);
                int cut = line.isEmpty() ? 0 : random.nextInt(line.length());
                lines.set(i, line.substring(0, cut));
                lines.add(i + 1, line.substring(cut));
            }
        }
        return String.join("\n", lines).getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] insert(byte[] in, int at, byte[] what) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(in.length + what.length);
        out.write(in, 0, at);
        out.writeBytes(what);
        out.write(in, at, in.length - at);
        return out.toByteArray();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** {@code input} for a failure message: printable ASCII as is, other bytes as \xNN, cut to 300 characters. */
    public static String show(byte[] input) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < input.length && b.length() < 300; i++) {
            int c = input[i] & 0xFF;
            b.append(c >= 0x20 && c < 0x7F ? String.valueOf((char) c) : c == '\n' ? "\\n" : String.format("\\x%02X", c));
        }
        return b.length() >= 300 ? b + "... (" + input.length + " bytes)" : b.toString();
    }
}
