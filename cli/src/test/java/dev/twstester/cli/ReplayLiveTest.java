package dev.twstester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --live}: the same files on live Spark 4.2.0 (local, RocksDB), compared batch by batch. */
@Tag("live")
class ReplayLiveTest {

    @Test
    void theCartStoryRunsTheSameOnLiveSpark() {
        Cli.Result r = Cli.run("replay", Cli.resource("cart").toString(), "--query", ReplayCartStoryTest.CART, "--live");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo(ReplayCartStoryTest.header(ReplayCartStoryTest.CART + "#query")
                + ReplayCartStoryTest.STORY + "live Spark: 6 batches, the same as the simulator's (ids, watermarks,"
                + " batch timestamps, late rows, outputs, timers, metrics)\n");
        assertThat(r.err()).contains("twstester: running the same steps on live Spark");
    }

    @Test
    void theTtlPlanRunsTheSameOnLiveSpark() {
        Cli.Result r = Cli.run("replay", Cli.resource("ttl").toString(), "--query",
                ReplayProcessingTimeTest.SESSIONS, "--live", "--format", "json");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out().lines()).hasSize(6 + 6 + 1);
        assertThat(r.out().lines().toList().get(12)).isEqualTo("{\"comparison\":{\"left\":\"simulator\",\"right\":\"spark\","
                + "\"same\":true,\"differences\":[]}}");
    }

    @Test
    void aRestartWithTwoShufflePartitionsRunsTheSameOnLiveSpark(@TempDir Path dir) throws IOException {
        ReplayRestartTest.cartWithRestart(dir);

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", ReplayCartStoryTest.CART, "--live",
                "--shuffle-partitions", "2");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains(ReplayRestartTest.restartLine("2024-05-01T10:10:00Z", 4) + "batch 4 (data, 003.jsonl)")
                .endsWith("\nlive Spark: 6 batches, the same as the simulator's (ids, watermarks, batch timestamps,"
                        + " late rows, outputs, timers, metrics)\n");
        assertThat(r.out()).startsWith("replay of 3 files with " + ReplayCartStoryTest.CART + "#query: EventTime"
                + " mode, Update output, watermark on ts with delay PT10M, 2 shuffle partitions; plan ");
    }
}
