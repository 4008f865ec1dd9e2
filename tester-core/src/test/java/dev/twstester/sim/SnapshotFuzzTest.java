package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.zip.CRC32;

import org.junit.jupiter.api.Test;

/**
 * Mutated snapshot files (our own generator, seeded {@link SplittableRandom}; the seed is in every
 * failure message): bit flips, truncations, insertions, overwritten bytes and edited length fields,
 * half of them with the CRC-32 made right again so that the parser itself meets them. Each file
 * either loads, to a snapshot that saves and loads to itself, or throws
 * {@link SnapshotFormatException} naming the file; never another exception, never a hang.
 *
 * <p>{@value #DEFAULT_COUNT} files per format (FULL, FAST, several operators) by default;
 * {@code -Dtwstester.fuzz.count=N} runs N per format and {@code -Dtwstester.fuzz.seed=S} repeats
 * a failing run; without it the seed is fixed ({@value #FIXED_SEED}), so {@code mvn verify} checks the
 * same files at every run, and {@code -Dtwstester.fuzz.seed=random} draws a new one.
 */
class SnapshotFuzzTest {
    static final int DEFAULT_COUNT = 10_000;
    static final long FIXED_SEED = 20261202L;
    private static final Path FILE = Path.of("fuzzed.snapshot");

    private static int count() {
        return Integer.getInteger("twstester.fuzz.count", DEFAULT_COUNT);
    }

    private static long seed() {
        String given = System.getProperty("twstester.fuzz.seed");
        return given == null ? FIXED_SEED : given.equals("random") ? new SplittableRandom().nextLong() : Long.parseLong(given);
    }

    /** {@code data} with its last four bytes the CRC-32 of the others. */
    static byte[] withCrc(byte[] data) {
        CRC32 crc = new CRC32();
        crc.update(data, 0, data.length - 4);
        ByteBuffer.wrap(data).putInt(data.length - 4, (int) crc.getValue());
        return data;
    }

    @Test
    void mutated_full_snapshots_load_or_fail_with_the_snapshot_format_exception() throws Exception {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(SnapshotFileTest.experiment(), Fidelity.FULL);
        SnapshotFileTest.experimentFirstPart(sim);
        fuzz("FULL", SnapshotWriter.bytes(sim.snapshot()));
    }

    @Test
    void mutated_fast_snapshots_load_or_fail_with_the_snapshot_format_exception() throws Exception {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(SnapshotFileTest.experiment(), Fidelity.FAST);
        SnapshotFileTest.experimentFirstPart(sim);
        fuzz("FAST", SnapshotWriter.bytes(sim.snapshot()));
    }

    @Test
    void mutated_snapshots_of_several_operators_load_or_fail_with_the_snapshot_format_exception() throws Exception {
        TwsSimulator<String, Event, OutEvent> sim = new TwsSimulator<>(ChainProcessors.chain());
        sim.run(ChainProcessors.firstPart());
        sim.setProcessingTime(Instant.ofEpochMilli(5000));
        fuzz("several operators", SnapshotWriter.bytes(sim.snapshot()));
    }

    private static void fuzz(String format, byte[] original) throws Exception {
        long seed = seed();
        int count = count();
        assertThat(SnapshotWriter.bytes(SnapshotReader.read(FILE, original))).isEqualTo(original);
        int[] outcomes = new int[2];
        assertTimeoutPreemptively(Duration.ofSeconds(60 + count / 100), () -> {
            SplittableRandom random = new SplittableRandom(seed);
            for (int i = 0; i < count; i++) {
                byte[] mutated = mutate(original, random);
                String what = format + " file " + i + " of seed " + seed + " (-Dtwstester.fuzz.seed=" + seed + ")";
                outcomes[check(mutated, what) ? 0 : 1]++;
            }
        }, () -> format + ": a mutated file took too long to load; seed " + seed);
        System.out.println(format + ": " + count + " mutated files of seed " + seed + ": " + outcomes[0] + " loaded, "
                + outcomes[1] + " refused with SnapshotFormatException");
        assertThat(outcomes[1]).as("seed " + seed).isGreaterThan(count / 2);
    }

    /** True when {@code data} loaded (and saves and loads to itself), false when it was refused as it should be. */
    private static boolean check(byte[] data, String what) {
        StateSnapshot loaded;
        try {
            loaded = SnapshotReader.read(FILE, data);
        } catch (SnapshotFormatException e) {
            assertThat(e.getMessage()).as(what).startsWith("cannot load the snapshot " + FILE + ": ");
            return false;
        } catch (RuntimeException | Error e) {
            throw new AssertionError(what + ": threw " + e + " instead of SnapshotFormatException", e);
        }
        try {
            byte[] saved = SnapshotWriter.bytes(loaded);
            assertThat(SnapshotWriter.bytes(SnapshotReader.read(FILE, saved))).as(what).isEqualTo(saved);
        } catch (Exception e) {
            throw new AssertionError(what + ": loaded, but did not save and load again: " + e, e);
        }
        return true;
    }

    private static final int[] LENGTHS = {0, 1, -1, Integer.MAX_VALUE, Integer.MIN_VALUE, 0x7fff, 1 << 24};

    private static byte[] mutate(byte[] original, SplittableRandom random) {
        byte[] data = original.clone();
        int n = 1 + random.nextInt(3);
        for (int m = 0; m < n && data.length > 0; m++) {
            data = switch (random.nextInt(6)) {
                case 0 -> flipBit(data, random);
                case 1 -> Arrays.copyOf(data, random.nextInt(data.length));
                case 2 -> insert(data, random);
                case 3 -> overwrite(data, random);
                case 4 -> editLength(data, random);
                default -> remove(data, random);
            };
        }
        return data.length >= 4 && random.nextBoolean() ? withCrc(data) : data;
    }

    private static byte[] flipBit(byte[] data, SplittableRandom random) {
        data[random.nextInt(data.length)] ^= (byte) (1 << random.nextInt(8));
        return data;
    }

    private static byte[] insert(byte[] data, SplittableRandom random) {
        int at = random.nextInt(data.length + 1);
        byte[] extra = new byte[1 + random.nextInt(16)];
        random.nextBytes(extra);
        byte[] out = new byte[data.length + extra.length];
        System.arraycopy(data, 0, out, 0, at);
        System.arraycopy(extra, 0, out, at, extra.length);
        System.arraycopy(data, at, out, at + extra.length, data.length - at);
        return out;
    }

    private static byte[] overwrite(byte[] data, SplittableRandom random) {
        int at = random.nextInt(data.length);
        int len = Math.min(data.length - at, 1 + random.nextInt(8));
        for (int i = 0; i < len; i++) {
            data[at + i] = (byte) random.nextInt(256);
        }
        return data;
    }

    private static byte[] remove(byte[] data, SplittableRandom random) {
        int at = random.nextInt(data.length);
        int len = Math.min(data.length - at, 1 + random.nextInt(16));
        byte[] out = new byte[data.length - len];
        System.arraycopy(data, 0, out, 0, at);
        System.arraycopy(data, at + len, out, at, data.length - at - len);
        return out;
    }

    /** A 4-byte field at any offset set to a length that is hostile or off by a little. */
    private static byte[] editLength(byte[] data, SplittableRandom random) {
        if (data.length < 4) {
            return data;
        }
        int at = random.nextInt(data.length - 3);
        ByteBuffer buffer = ByteBuffer.wrap(data);
        int value = random.nextBoolean() ? LENGTHS[random.nextInt(LENGTHS.length)]
                : buffer.getInt(at) + random.nextInt(-3, 4);
        buffer.putInt(at, value);
        return data;
    }

}
