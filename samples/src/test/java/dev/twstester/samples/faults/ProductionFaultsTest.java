package dev.twstester.samples.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.apache.spark.SparkRuntimeException;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.BatchResult;
import dev.twstester.RunComparison;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.samples.cart.CartAlert;
import dev.twstester.samples.cart.CartEvent;
import dev.twstester.samples.cart.CartEventFiles;
import dev.twstester.samples.cart.CartWatch;
import dev.twstester.samples.counts.RunningCount;
import dev.twstester.sim.Fidelity;
import dev.twstester.report.KeyIsolationCheck;
import dev.twstester.sim.NondeterministicBatchException;
import dev.twstester.sim.StateSnapshot;
import dev.twstester.sim.TwsSimulator;
import dev.twstester.spark.LiveRunException;
import dev.twstester.spark.LiveRunner;

import scala.Tuple2;

/**
 * What production does to stateful processors and a happy-path test never shows: restarts from a
 * checkpoint, task retries, several shuffle partitions, instance fields shared between keys, and
 * the {@code eventTimeColumnName} check. Each test is a pattern to copy.
 */
class ProductionFaultsTest {
    private static final List<CartEventFiles.EventFile> STORY = CartEventFiles.story();

    private static Instant at(String hhmm) {
        return Instant.parse("2024-05-01T" + hhmm + ":00Z");
    }

    private static Scenario<CartEvent> story(boolean restartBeforeLastFile) {
        Scenario.Builder<CartEvent> b = Scenario.<CartEvent>builder()
                .batch(STORY.get(0).events())
                .batch(STORY.get(1).events());
        if (restartBeforeLastFile) {
            b.restart();
        }
        return b.batch(STORY.get(2).events()).build();
    }

    @Test
    @Tag("live")
    void aRestartBetweenFilesKeepsTheCartsAndTheAlertStillFires() {
        RunResult<String, CartEvent, CartAlert> straight = new TwsSimulator<>(CartWatch.query()).run(story(false));
        RunResult<String, CartEvent, CartAlert> restarted = new TwsSimulator<>(CartWatch.query()).run(story(true));

        assertThat(restarted.outputs()).containsExactly(new CartAlert("ana", 2, at("10:05")))
                .isEqualTo(straight.outputs());
        assertThat(restarted.batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L, 2L, 3L, 4L, 5L);
        // the same on a real RocksDB-backed query stopped and started again on its checkpoint
        RunComparison.simulatorVsSpark().assertSame(restarted, LiveRunner.of(CartWatch.query()).run(story(true)));
    }

    @Test
    void aSnapshotSavedBetweenFilesContinuesInAFreshSimulator(@TempDir Path dir) throws Exception {
        TwsSimulator<String, CartEvent, CartAlert> before = new TwsSimulator<>(CartWatch.query());
        before.runBatch(STORY.get(0).events());
        before.runBatch(STORY.get(1).events());
        before.snapshot().save(dir.resolve("carts.snapshot"));

        TwsSimulator<String, CartEvent, CartAlert> after = new TwsSimulator<>(CartWatch.query());
        after.restore(StateSnapshot.load(dir.resolve("carts.snapshot")));

        assertThat(after.state().list("items", "ana")).containsExactly("boots", "socks");
        assertThat(after.runBatch(STORY.get(2).events()).outputs()).containsExactly(new CartAlert("ana", 2, at("10:05")));
    }

    @Test
    @Tag("live")
    void withThreePartitionsOutputsComePartitionByPartitionAsInSpark() {
        TwsQuery<String, String, Tuple2<String, Long>> query = RunningCount.query().withShufflePartitions(3);
        Scenario<String> scenario = Scenario.<String>builder().batch(List.of("b", "a", "c", "d", "e", "a")).build();

        RunResult<String, String, Tuple2<String, Long>> sim = new TwsSimulator<>(query).run(scenario);

        // each key still gets all its rows in one call; only the order across partitions changes
        assertThat(sim.outputs()).containsExactlyInAnyOrder(new Tuple2<>("a", 2L), new Tuple2<>("b", 1L),
                new Tuple2<>("c", 1L), new Tuple2<>("d", 1L), new Tuple2<>("e", 1L));
        assertThat(sim.outputs()).extracting(Tuple2::_1).isNotEqualTo(List.of("a", "b", "c", "d", "e"));
        RunComparison.simulatorVsSpark().assertSame(sim, LiveRunner.of(query).run(scenario));
    }

    @Test
    void metricsShowWhatTheStoryDidToStateAndTimers() {
        TwsSimulator<String, CartEvent, CartAlert> sim = new TwsSimulator<>(CartWatch.query());
        BatchResult<String, CartEvent, CartAlert> first = sim.runBatch(STORY.get(0).events()).batches().get(0);

        // ana adds twice (the second add moves her timer: one delete, one register), bo once
        assertThat(first.metrics()).containsEntry("numRegisteredTimers", 3L).containsEntry("numDeletedTimers", 1L)
                .containsEntry("numUpdatedStateRows", 6L).containsEntry("numListStateVars", 1L)
                .containsEntry("numValueStateVars", 1L);
        sim.runBatch(STORY.get(1).events());
        BatchResult<String, CartEvent, CartAlert> third = sim.runBatch(STORY.get(2).events()).batches().get(0);
        assertThat(third.metric("numRowsDroppedByWatermark")).isEqualTo(1);
    }

    @Test
    void checkRetriesCatchesAProcessorThatReadsTheWallClock() {
        TwsSimulator<String, String, String> wallClock = TwsSimulator.builder(StampedCounts.query(true))
                .checkRetries().build();
        wallClock.setProcessingTime(Instant.ofEpochSecond(60));

        assertThatThrownBy(() -> wallClock.runBatch("a", "a"))
                .isInstanceOf(NondeterministicBatchException.class)
                .hasMessageContaining("batch 0 is not deterministic")
                .hasMessageContaining("key a: handleInputRows emitted [a=2@");

        TwsSimulator<String, String, String> batchTime = TwsSimulator.builder(StampedCounts.query(false))
                .checkRetries().build();
        batchTime.setProcessingTime(Instant.ofEpochSecond(60));
        assertThat(batchTime.runBatch("a", "a").outputs()).containsExactly("a=2@60000");
        assertThat(batchTime.state().<Long>value("count", "a")).contains(2L);
    }

    private static final Scenario<String> VISITS = Scenario.<String>builder()
            .batch(List.of("ann,home", "bob,home", "ann,cart", "cid,home", "dee,home"))
            .batch(List.of("bob,cart", "ann,home"))
            .build();

    @Test
    void keyIsolationCheckFindsPerUserDataInAnInstanceField() {
        KeyIsolationCheck.Report leaky = KeyIsolationCheck.run(FirstSeen.query(FirstSeen.Leaky::new), VISITS);

        assertThat(leaky.isolated()).isFalse();
        assertThat(leaky.leakingFields()).first().asString()
                .startsWith("field 'seen' of dev.twstester.samples.faults.FirstSeen$Leaky was written while handling key ");
        assertThat(leaky.keyDifferences()).isNotEmpty();
        assertThat(leaky.toString()).contains("keep per-key data in state variables, not fields");

        KeyIsolationCheck.Report fixed = KeyIsolationCheck.run(FirstSeen.query(FirstSeen.Fixed::new), VISITS);
        assertThat(fixed.isolated()).as(fixed.toString()).isTrue();
        assertThat(new TwsSimulator<>(FirstSeen.query(FirstSeen.Fixed::new)).run(VISITS).outputs())
                .containsExactly("ann:home", "ann:cart", "bob:home", "cid:home", "dee:home", "bob:cart");
    }

    @Test
    void realTimeModeCallsTheProcessorOncePerRow() {
        TwsSimulator<String, String, Tuple2<String, Long>> perRow = TwsSimulator.builder(RunningCount.query())
                .realTimeMode().build();
        TwsSimulator<String, String, Tuple2<String, Long>> perBatch = new TwsSimulator<>(RunningCount.query(), Fidelity.FAST);

        assertThat(perRow.runBatch("a", "b", "a").outputs())
                .containsExactly(new Tuple2<>("a", 1L), new Tuple2<>("a", 2L), new Tuple2<>("b", 1L));
        assertThat(perBatch.runBatch("a", "b", "a").outputs())
                .containsExactly(new Tuple2<>("a", 2L), new Tuple2<>("b", 1L));
    }

    /** CartWatch's query with the alerts' {@code lastSeen} as the output event time, for a downstream window. */
    private static TwsQuery<String, CartEvent, CartAlert> alertsWithEventTime() {
        return TwsQuery.builder(CartWatch::new)
                .keyBy(CartEvent::getUserId, Encoders.STRING())
                .input(Encoders.bean(CartEvent.class))
                .output(Encoders.bean(CartAlert.class))
                .outputMode(OutputMode.Update())
                .watermark("ts", CartWatch.WATERMARK_DELAY)
                .outputEventTimeColumn("lastSeen")
                .build();
    }

    @Test
    @Tag("live")
    void anAlertStampedWithTheLastAddIsOlderThanTheWatermarkAndFailsTheQuery() {
        TwsQuery<String, CartEvent, CartAlert> query = alertsWithEventTime();
        assertThat(query.timeMode()).isEqualTo(TimeMode.EventTime());

        SparkRuntimeException simulated = catchThrowableOfType(SparkRuntimeException.class,
                () -> new TwsSimulator<>(query).run(story(false)));

        // ana's alert says 10:05, but it fires once the watermark passed 10:35: too late for a window downstream
        assertThat(simulated.getCondition()).isEqualTo("EMITTING_ROWS_OLDER_THAN_WATERMARK_NOT_ALLOWED");
        assertThat(simulated.getMessageParameters()).isEqualTo(Map.of(
                "emittedRowEventTime", String.valueOf(at("10:05").toEpochMilli() * 1000),
                "currentWatermark", String.valueOf(at("10:10").toEpochMilli())));
        LiveRunException live = catchThrowableOfType(LiveRunException.class,
                () -> LiveRunner.of(query).run(story(false)));
        assertThat(live.errorClass()).contains(simulated.getCondition());
    }
}
