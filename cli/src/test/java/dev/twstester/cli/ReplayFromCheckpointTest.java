package dev.twstester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.Scenario;
import dev.twstester.samples.cart.CartEvent;
import dev.twstester.samples.cart.CartWatch;
import dev.twstester.spark.LiveRunner;

/**
 * {@code replay --from-checkpoint}: the cart story's first two files run on live Spark, whose
 * checkpoint then seeds the simulator for the rest; the batches printed are the story's own.
 */
@Tag("live")
class ReplayFromCheckpointTest {
    private static Path checkpoint;
    private static Path lastFile;
    private static Path lastTwoFiles;

    private static Instant at(String hhmm) {
        return Instant.parse("2024-05-01T" + hhmm + ":00Z");
    }

    @BeforeAll
    static void liveRunOfTheFirstTwoFiles(@TempDir Path dir) throws IOException {
        checkpoint = dir.resolve("checkpoint");
        LiveRunner.of(CartWatch.query()).keepCheckpointIn(checkpoint).run(Scenario.<CartEvent>builder()
                .batch(List.of(CartEvent.add("ana", "boots", at("10:00")), CartEvent.add("ana", "socks", at("10:05")),
                        CartEvent.add("bo", "mug", at("10:08"))))
                .batch(List.of(CartEvent.add("bo", "scarf", at("10:12")), CartEvent.checkout("bo", at("10:20"))))
                .build());
        lastFile = Files.createDirectories(dir.resolve("third"));
        Files.copy(Cli.resource("cart").resolve("003.jsonl"), lastFile.resolve("003.jsonl"));
        lastTwoFiles = Files.createDirectories(dir.resolve("second-and-third"));
        Files.copy(Cli.resource("cart").resolve("002.jsonl"), lastTwoFiles.resolve("002.jsonl"));
        Files.copy(Cli.resource("cart").resolve("003.jsonl"), lastTwoFiles.resolve("003.jsonl"));
    }

    /** The story's batches from {@code batchId} on, as {@code replay} printed them for all three files. */
    private static String storyFrom(int batchId) {
        String story = ReplayCartStoryTest.STORY;
        return story.substring(story.indexOf("batch " + batchId + " (data"), story.indexOf("total: "));
    }

    @Test
    void theThirdFileRunsOnTheCheckpointsStateAsInTheWholeStory() {
        Cli.Result r = Cli.run("replay", lastFile.toString(), "--query", ReplayCartStoryTest.CART,
                "--from-checkpoint", checkpoint.toString());

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains(storyFrom(4));
        assertThat(r.out()).contains("total: 2 batches for 1 file: 1 output row, 1 timer fired, 1 row dropped late;"
                + " watermark 2024-05-01T10:40:00Z, processing time 1970-01-01T00:00:00Z; keys with state: [cy]");
        assertThat(r.err()).contains("twstester: started from the checkpoint's batch 3: 1 key with state or timers,"
                + " watermark 2024-05-01T10:10:00Z, processing time 1970-01-01T00:00:00Z; the next batch is 4\n");
    }

    @Test
    void batchIdReadsAnEarlierCommittedBatch() {
        Cli.Result r = Cli.run("replay", lastTwoFiles.toString(), "--query", ReplayCartStoryTest.CART,
                "--from-checkpoint", checkpoint.toString(), "--batch-id", "1");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains(storyFrom(2));
        assertThat(r.err()).contains("twstester: started from the checkpoint's batch 1: 2 keys with state or timers,"
                + " watermark 2024-05-01T09:58:00Z, processing time 1970-01-01T00:00:00Z; the next batch is 2\n");

        Cli.Result notCommitted = Cli.run("replay", lastFile.toString(), "--query", ReplayCartStoryTest.CART,
                "--from-checkpoint", checkpoint.toString(), "--batch-id", "7");
        assertThat(notCommitted.exitCode()).as(notCommitted.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(notCommitted.err()).endsWith("--from-checkpoint " + checkpoint + ": batch 7 is not committed in the"
                + " checkpoint " + checkpoint.toAbsolutePath().normalize() + "; its last committed batch is 3\n");
    }

    @Test
    void aFolderThatIsNoCheckpointAndOptionsThatDoNotGoTogetherAreUsageErrors(@TempDir Path empty) {
        Cli.Result r = Cli.run("replay", lastFile.toString(), "--query", ReplayCartStoryTest.CART,
                "--from-checkpoint", empty.toString());
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).endsWith("--from-checkpoint " + empty + ": " + empty.toAbsolutePath().normalize()
                + " is no Spark streaming checkpoint: it has no offsets/ and commits/ folders; give the folder the"
                + " query was started with as its checkpointLocation\n");

        assertThat(Cli.run("replay", "--help").out().replaceAll("\\s+", " ")).contains("--from-checkpoint=<folder>"
                + " Start the simulator from the state in a Spark streaming checkpoint", "--batch-id=<n> With"
                + " --from-checkpoint: read the state as batch n committed it");

        r = Cli.run("replay", lastFile.toString(), "--query", ReplayCartStoryTest.CART, "--batch-id", "1");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).isEqualTo("--batch-id 1 needs --from-checkpoint <folder>\n");

        r = Cli.run("replay", lastFile.toString(), "--query", ReplayCartStoryTest.CART, "--from-checkpoint",
                checkpoint.toString(), "--live");
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).isEqualTo("--from-checkpoint: live Spark cannot resume a checkpoint written by another"
                + " query's source; drop --live, or --from-checkpoint to compare a run from empty state\n");
    }
}
