package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.RunComparison;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.TwsSimulator;

/**
 * Live runs at the same time in one SparkSession: each run has its own session copy (shuffle
 * partitions), clock, source, sink, checkpoint and timer record, so concurrent runs give what
 * each gives alone, which is what the simulator gives.
 */
@Tag("live")
class LiveConcurrencyTest {
    private static final List<String> KEYS = List.of("ana", "bo", "cy", "dee", "ed", "flo", "gus");

    private static TwsQuery<String, String, String> query(int partitions) {
        return TwsQuery.builder(LivePartitionsTest.TimerPerKey::new)
                .keyBy(s -> s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .shufflePartitions(partitions)
                .build();
    }

    /** Scenario {@code i}: a different key set and expiries per scenario, a tick that fires them, a restart, more input. */
    private static Scenario<String> scenario(int i) {
        List<String> first = new ArrayList<>();
        for (int k = 0; k <= i % KEYS.size(); k++) {
            first.add(KEYS.get(k) + ",reg:" + (2000 + 100 * i + k));
        }
        return Scenario.<String>builder()
                .batchAt(Instant.ofEpochMilli(1000), first)
                .tick(Instant.ofEpochMilli(3000 + 100 * i))
                .restart()
                .batchAt(Instant.ofEpochMilli(4000 + 100 * i), List.of(KEYS.get(i % KEYS.size()) + ",reg:9000"))
                .build();
    }

    @Test
    void concurrent_runs_at_different_partition_counts_each_agree_with_the_simulator() throws Exception {
        List<Scenario<String>> scenarios = List.of(scenario(0), scenario(3), scenario(5));
        // two runAll calls at once, one and three partitions: up to four queries run together
        CompletableFuture<List<RunResult<String, String, String>>> one =
                CompletableFuture.supplyAsync(() -> LiveRunner.of(query(1)).runAll(scenarios, 2));
        CompletableFuture<List<RunResult<String, String, String>>> three =
                CompletableFuture.supplyAsync(() -> LiveRunner.of(query(3)).runAll(scenarios, 2));
        List<RunResult<String, String, String>> ones = one.get();
        List<RunResult<String, String, String>> threes = three.get();

        assertThat(ones).hasSize(3);
        assertThat(threes).hasSize(3);
        for (int i = 0; i < scenarios.size(); i++) {
            RunComparison.simulatorVsSpark().assertSame(new TwsSimulator<>(query(1)).run(scenarios.get(i)), ones.get(i));
            RunComparison.simulatorVsSpark().assertSame(new TwsSimulator<>(query(3)).run(scenarios.get(i)), threes.get(i));
            // one processor init per partition task and batch
            assertThat(threes.get(i).batches()).extracting(b -> b.metric("numValueStateVars")).containsOnly(3L);
            assertThat(ones.get(i).batches()).extracting(b -> b.metric("numValueStateVars")).containsOnly(1L);
        }
        assertThat(ones.get(2).firedTimers()).extracting(t -> t.key()).containsExactly("ana", "bo", "cy", "dee", "ed", "flo");
    }

    @Test
    void run_all_reports_the_first_failing_scenario_in_list_order_after_the_others_ran() {
        Scenario<String> noTime = Scenario.<String>builder().batch(List.of("ana,reg:5000")).build();
        assertThatThrownBy(() -> LiveRunner.of(query(1)).runAll(List.of(scenario(1), noTime, scenario(2)), 2))
                .isInstanceOf(LiveRunException.class)
                .hasMessageContaining("live Spark run failed at batch 0")
                .hasMessageContaining("give each input a processing time later than the previous step");
    }

    @Test
    void concurrency_must_be_at_least_one() {
        assertThatThrownBy(() -> LiveRunner.of(query(1)).runAll(List.of(scenario(0)), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("runAll(..., 0): concurrency must be at least 1");
        String before = System.getProperty(LiveRunner.CONCURRENCY_PROPERTY);
        try {
            System.setProperty(LiveRunner.CONCURRENCY_PROPERTY, "two");
            assertThatThrownBy(LiveRunner::defaultConcurrency).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("-Dtwstester.live.concurrency=two must be a whole number of scenarios to run at once, at least 1");
            System.setProperty(LiveRunner.CONCURRENCY_PROPERTY, " 3 ");
            assertThat(LiveRunner.defaultConcurrency()).isEqualTo(3);
            System.clearProperty(LiveRunner.CONCURRENCY_PROPERTY);
            assertThat(LiveRunner.defaultConcurrency()).isEqualTo(LiveRunner.DEFAULT_CONCURRENCY);
        } finally {
            if (before == null) {
                System.clearProperty(LiveRunner.CONCURRENCY_PROPERTY);
            } else {
                System.setProperty(LiveRunner.CONCURRENCY_PROPERTY, before);
            }
        }
    }

    @Test
    void run_sessions_are_copies_that_leave_the_shared_session_alone() {
        String shared = LiveSpark.session().conf().get("spark.sql.shuffle.partitions");
        var run = LiveSpark.forRun(LiveSpark.session(), 4);
        assertThat(run).isNotSameAs(LiveSpark.session());
        assertThat(run.conf().get("spark.sql.shuffle.partitions")).isEqualTo("4");
        assertThat(LiveSpark.session().conf().get("spark.sql.shuffle.partitions")).isEqualTo(shared);
        LiveSpark.FAST_SETTINGS.forEach((k, v) -> assertThat(run.conf().get(k)).as(k).isEqualTo(v));
        // Spark's defaults for every tuned setting in the defaults session; the context's settings stay
        var defaults = LiveSpark.sparkDefaultsSession();
        assertThat(defaults.conf().getOption("spark.sql.streaming.stateStore.rocksdb.changelogCheckpointing.enabled").isEmpty())
                .isTrue();
        assertThat(defaults.conf().getOption("fs.file.impl").isEmpty()).isTrue();
        assertThat(defaults.conf().get("spark.sql.streaming.stateStore.providerClass")).isEqualTo(LiveSpark.ROCKSDB);
    }

    @Test
    void no_fork_file_system_sets_the_permission_bits_hadoop_asks_for(@TempDir Path dir) throws Exception {
        Configuration conf = new Configuration(false);
        conf.set("fs.file.impl", NoForkLocalFileSystem.class.getName());
        conf.set("fs.file.impl.disable.cache", "true");
        FileSystem fs = FileSystem.get(dir.toUri(), conf);
        assertThat(fs).isInstanceOf(NoForkLocalFileSystem.class);
        org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(dir.resolve("f").toUri());
        try (FSDataOutputStream out = fs.create(file, new FsPermission((short) 0640), true, 4096, (short) 1, 1 << 20, null)) {
            out.writeUTF("x");
        }
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("f")))).isEqualTo("rw-r-----");
        assertThat(Files.exists(dir.resolve(".f.crc"))).as("no checksum side file").isFalse();
        org.apache.hadoop.fs.Path sub = new org.apache.hadoop.fs.Path(dir.resolve("a/b").toUri());
        assertThat(fs.mkdirs(sub, new FsPermission((short) 0751))).isTrue();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("a/b")))).isEqualTo("rwxr-x--x");
        fs.setPermission(file, new FsPermission((short) 0404));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("f")))).isEqualTo("r-----r--");
    }
}
