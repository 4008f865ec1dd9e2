package dev.twstester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@code --live}: the same files on live Spark 4.2.0 (local, RocksDB), compared batch by batch. */
@Tag("live")
class ReplayLiveTest {

    @Test
    void theCartStoryRunsTheSameOnLiveSpark() {
        Cli.Result r = Cli.run("replay", Cli.resource("cart").toString(), "--query", ReplayCartStoryTest.CART, "--live");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo(ReplayCartStoryTest.header(ReplayCartStoryTest.CART + "#query")
                + ReplayCartStoryTest.STORY + "live Spark: 6 batches, the same as the simulator's (ids, watermarks,"
                + " batch timestamps, late rows, outputs, timers)\n");
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
}
