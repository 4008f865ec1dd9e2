package dev.twstester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.io.EncoderRows;
import dev.twstester.io.JsonLines;
import dev.twstester.samples.cart.CartEvent;
import dev.twstester.samples.chain.CartDigest;
import dev.twstester.samples.chain.ChainQueries;
import dev.twstester.spark.LiveRunner;

/**
 * The two-operator query of {@link ReplayChainTest} on live Spark: {@code --live} compares every
 * operator's view of every batch and the end state of both operators; {@code --from-checkpoint}
 * starts both operators from a live run's checkpoint.
 */
@Tag("live")
class ReplayChainLiveTest {
    private static Path checkpoint;
    private static Path lastTwoFiles;

    /** The first three files run on live Spark, their checkpoint kept; the last two copied apart. */
    @BeforeAll
    static void liveRunOfTheFirstThreeFiles(@TempDir Path dir) throws IOException {
        TwsQuery<String, CartEvent, CartDigest> query = ChainQueries.abandonedCartDigest();
        JsonLines<CartEvent> events = JsonLines.of(EncoderRows.of(query.inputEncoder()), note -> { });
        Scenario.Builder<CartEvent> firstThree = Scenario.builder();
        for (String file : new String[] {"001.jsonl", "002.jsonl", "003.jsonl"}) {
            firstThree.batch(events.read(ReplayChainTest.FILES.resolve(file)));
        }
        checkpoint = dir.resolve("checkpoint");
        LiveRunner.of(query).keepCheckpointIn(checkpoint).run(firstThree.build());
        lastTwoFiles = Files.createDirectories(dir.resolve("fourth-and-fifth"));
        for (String file : new String[] {"004.jsonl", "005.jsonl"}) {
            Files.copy(ReplayChainTest.FILES.resolve(file), lastTwoFiles.resolve(file));
        }
    }

    @Test
    void theChainRunsTheSameOnLiveSparkOperatorByOperatorAndEndsInTheSameState() {
        Cli.Result r = Cli.run("replay", ReplayChainTest.FILES.toString(), "--query", ReplayChainTest.CHAIN, "--live");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo(ReplayChainTest.HEADER + ReplayChainTest.STORY
                + "live Spark: 10 batches, the same as the simulator's (ids, watermarks, batch timestamps, late rows,"
                + " outputs, timers, metrics)\n"
                + "live Spark's end state after batch 9: the same as the simulator's (2 keys" + ReplayLiveTest.STATE_COMPARED);
    }

    @Test
    void theChainInJsonSaysBothRunsAndEndStatesAreTheSame() {
        Cli.Result r = Cli.run("replay", ReplayChainTest.FILES.toString(), "--query", ReplayChainTest.CHAIN, "--live",
                "--format", "json");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out().lines()).hasSize(10 + 10 + 1);
        assertThat(r.out().lines().toList().get(20)).isEqualTo("{\"comparison\":{\"left\":\"simulator\",\"right\":"
                + "\"spark\",\"same\":true,\"differences\":[],\"endState\":{\"compared\":true,\"afterBatch\":9,\"keys\":2,"
                + "\"same\":true,\"differences\":[]}}}");
    }

    @Test
    void theLastTwoFilesRunOnBothOperatorsCheckpointedStateAsInTheWholeStory() {
        Cli.Result r = Cli.run("replay", lastTwoFiles.toString(), "--query", ReplayChainTest.CHAIN,
                "--from-checkpoint", checkpoint.toString());

        assertThat(r.exitCode()).as(r.toString()).isZero();
        String story = ReplayChainTest.STORY;
        assertThat(r.out()).contains(story.substring(story.indexOf("batch 6 (data"), story.indexOf("total: ")));
        assertThat(r.out()).endsWith("keys with state: operator 0 [fay], operator 1 [2024-05-01T12:00:00Z]\n");
        assertThat(r.err()).contains("twstester: started from the checkpoint's batch 5: 2 keys in operator 0, 1 key in"
                + " operator 1 with state or timers, watermark 2024-05-01T10:45:00Z, processing time"
                + " 1970-01-01T00:00:00Z; the next batch is 6\n");
    }
}
