package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.sim.StateSnapshot;
import dev.twstester.io.CountProcessor;

/**
 * {@link CheckpointState} on damaged copies of a live checkpoint (batches 0 to 3 of
 * {@link CheckpointProbe}): a missing or corrupted commit, a truncated or missing offset log, an
 * empty or foreign state folder, corrupted state metadata, and a checkpoint of another query. Each
 * is read as Spark's own readers read it, or fails with one {@link IllegalArgumentException} (a
 * foreign processor: {@link IllegalStateException}) naming the folder and what is wrong.
 */
@Tag("live")
class DamagedCheckpointTest {
    @TempDir
    static Path dir;
    static Path checkpoint;

    @BeforeAll
    static void runLive() {
        checkpoint = dir.resolve("checkpoint");
        LiveRunner.of(CheckpointProbe.query()).keepCheckpointIn(checkpoint)
                .run(CheckpointStateTest.secondPart(CheckpointStateTest.firstPart()).build());
    }

    interface Damage {
        void apply(Path copy) throws IOException;
    }

    /** A copy of the checkpoint, damaged by {@code damage} (checksum files of changed files removed). */
    static Path damaged(String name, Damage damage) throws IOException {
        Path copy = dir.resolve(name);
        try (Stream<Path> all = Files.walk(checkpoint)) {
            for (Path p : all.toList()) {
                Path to = copy.resolve(checkpoint.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(p, to);
                }
            }
        }
        damage.apply(copy);
        return copy;
    }

    static void delete(Path path) throws IOException {
        try (Stream<Path> all = Files.walk(path)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** Replaces {@code file} of the folder with {@code content}, and drops its checksum file. */
    static void write(Path folder, String file, byte[] content) throws IOException {
        Path path = folder.resolve(file);
        Files.write(path, content);
        Files.deleteIfExists(path.resolveSibling("." + path.getFileName() + ".crc"));
    }

    static void emptyFolder(Path folder) throws IOException {
        delete(folder);
        Files.createDirectories(folder);
    }

    static void assertRefused(Path copy, String message) {
        assertThatThrownBy(() -> CheckpointState.of(CheckpointProbe.query()).read(copy))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("the checkpoint " + copy.toAbsolutePath().normalize() + message);
    }

    @Test
    void aMissingLastCommitReadsTheBatchBeforeAndNoCommitAtAllIsRefused() throws IOException {
        Path noLast = damaged("no-last-commit", c -> {
            Files.delete(c.resolve("commits/3"));
            Files.deleteIfExists(c.resolve("commits/.3.crc"));
        });
        StateSnapshot read = CheckpointState.of(CheckpointProbe.query()).read(noLast);
        assertThat(read.nextBatchId()).as("batch 2 is the last committed one, as Spark restarts from it").isEqualTo(3);
        assertRefused(damaged("no-commits", c -> emptyFolder(c.resolve("commits"))),
                " has no committed batch: its commits/ folder is empty (the query never finished a batch)");
    }

    @Test
    void aCorruptedCommitIsRefusedNamingTheCommitLog() throws IOException {
        assertRefused(damaged("commit-garbage", c -> write(c, "commits/3", "garbage\0".getBytes())),
                ": batch 3's commit (commits/3) cannot be read: IllegalStateException: Failed to read log file ");
        assertRefused(damaged("commit-empty", c -> write(c, "commits/3", new byte[0])),
                ": batch 3's commit (commits/3) cannot be read: IllegalStateException: Failed to read log file ");
    }

    @Test
    void aTruncatedOrMissingOffsetLogIsRefusedNamingTheBatchsOffsets() throws IOException {
        assertRefused(damaged("offsets-truncated", c -> {
            byte[] offsets = Files.readAllBytes(c.resolve("offsets/3"));
            write(c, "offsets/3", Arrays.copyOf(offsets, offsets.length / 2));
        }), ": batch 3's offsets (offsets/3) cannot be read: JsonEOFException: Unexpected end-of-input");
        assertRefused(damaged("offsets-missing", c -> {
            Files.delete(c.resolve("offsets/3"));
            Files.deleteIfExists(c.resolve("offsets/.3.crc"));
        }), " has no offsets of batch 3");
    }

    @Test
    void anEmptyOrForeignStateFolderIsRefusedNamingWhatIsMissingOrUnreadable() throws IOException {
        assertRefused(damaged("state-empty", c -> emptyFolder(c.resolve("state"))),
                " has no state of operator 0: its state/ folder is empty");
        assertRefused(damaged("state-0-empty", c -> emptyFolder(c.resolve("state/0"))),
                " has no stateful operator 0: Spark's state metadata names no operator (state/0/_metadata/ is missing,"
                        + " empty or unreadable)");
        // Spark 4.2's state-metadata source fails on the foreign metadata, 4.0's reads no operator from it
        assertRefused(damaged("state-foreign", c -> {
            try (Stream<Path> files = Files.walk(c.resolve("state/0"))) {
                for (Path p : files.filter(Files::isRegularFile).toList()) {
                    Files.writeString(p, "not state");
                }
            }
        }), "");
        assertThatThrownBy(() -> CheckpointState.of(CheckpointProbe.query()).read(dir.resolve("state-foreign")))
                .message().containsAnyOf(": the state metadata (state/*/_metadata/) cannot be read: "
                        + "SparkIllegalStateException: [MALFORMED_LOG_FILE]", " has no stateful operator 0: Spark's state"
                        + " metadata names no operator (state/0/_metadata/ is missing, empty or unreadable)");
        assertRefused(damaged("state-no-partitions", c -> {
            try (Stream<Path> parts = Files.list(c.resolve("state/0"))) {
                for (Path p : parts.filter(p -> !p.getFileName().toString().startsWith("_")).toList()) {
                    delete(p);
                }
            }
        }), ": operator 0's ");
    }

    @Test
    void aCorruptedQueryMetadataFileIsNotReadAsSparksStateReaderDoesNotReadIt() throws IOException {
        Path copy = damaged("metadata-garbage", c -> write(c, "metadata", "{garbage".getBytes()));
        assertThat(CheckpointState.of(CheckpointProbe.query()).read(copy).nextBatchId()).isEqualTo(4);
    }

    @Test
    void aCheckpointOfAnotherQueryNamesEveryVariableItHasAndTheQueryDoesNotDeclare() {
        assertThatThrownBy(() -> CheckpointState.of(CountProcessor.query()).read(checkpoint))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("the checkpoint " + checkpoint.toAbsolutePath().normalize() + " (operator 0,"
                        + " batch 3) was not written by this version of the query's processor (" + CountProcessor.class
                        .getName() + "), or is another query's:")
                .hasMessageContaining("state variable 'seen': the checkpoint has list state 'seen', the query's processor"
                        + " declares none (it declares [count])");
    }
}
