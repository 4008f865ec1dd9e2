package dev.twstester.samples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.RunComparison;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.samples.cart.CartAlert;
import dev.twstester.samples.cart.CartEvent;
import dev.twstester.samples.cart.CartWatch;
import dev.twstester.samples.counts.RunningCount;
import dev.twstester.samples.fraud.CardStatus;
import dev.twstester.samples.fraud.FraudAlert;
import dev.twstester.samples.fraud.FraudSessions;
import dev.twstester.samples.fraud.FraudStateMachine;
import dev.twstester.samples.fraud.FraudStateProcessor;
import dev.twstester.samples.fraud.Payment;
import dev.twstester.samples.migration.MigrateFromInitialState;
import dev.twstester.samples.ttl.Click;
import dev.twstester.samples.ttl.SessionClosed;
import dev.twstester.samples.ttl.TtlSessions;
import dev.twstester.sim.StateSnapshot;
import dev.twstester.sim.TwsSimulator;
import dev.twstester.spark.CheckpointState;
import dev.twstester.spark.LiveRunner;

import scala.Tuple2;

/**
 * "What would my processor do with the state it has in production?", for every sample: live Spark
 * runs a first part of a scenario, stops, starts again from its checkpoint and runs the rest. The
 * checkpoint, read at the first part's last batch ({@link CheckpointState}), holds exactly the state
 * and timers the simulator has after the first part; a simulator seeded from it runs the rest with
 * Spark's batches and outputs, and ends with the checkpoint's last state.
 */
@Tag("live")
class CheckpointSeedTest {
    private static final RunComparison<Object> SAME = RunComparison.simulatorVsSpark();

    private static Instant at(String hhmm) {
        return Instant.parse("2024-05-01T" + hhmm + ":00Z");
    }

    private static Instant minute(int m) {
        return Instant.EPOCH.plus(Duration.ofMinutes(m));
    }

    /**
     * Live: {@code first}, stop, start, {@code rest}, its checkpoint kept in {@code dir}. Checks the
     * state read at the first part's last batch and what a simulator seeded with it runs; returns
     * that simulator's run of {@code rest}.
     */
    private static <K, I, O> RunResult<K, I, O> seeded(TwsQuery<K, I, O> query, UnaryOperator<Scenario.Builder<I>> first,
            UnaryOperator<Scenario.Builder<I>> rest, Path dir) {
        Path checkpoint = dir.resolve("checkpoint");
        RunResult<K, I, O> live = LiveRunner.of(query).keepCheckpointIn(checkpoint)
                .run(rest.apply(first.apply(Scenario.builder()).stop().start()).build());

        TwsSimulator<K, I, O> firstOnly = new TwsSimulator<>(query);
        RunResult<K, I, O> firstRun = firstOnly.run(first.apply(Scenario.builder()).build());
        long lastOfFirst = firstRun.lastBatch().batchId();
        StateSnapshot production = CheckpointState.of(query).batchId(lastOfFirst).read(checkpoint);
        SAME.assertSameState(firstOnly.snapshot(), production);
        assertThat(production.nextBatchId()).isEqualTo(lastOfFirst + 1);

        TwsSimulator<K, I, O> sim = new TwsSimulator<>(query);
        sim.restore(production);
        RunResult<K, I, O> replayed = sim.run(rest.apply(Scenario.builder()).build());
        SAME.assertSame(replayed, new RunResult<>(live.batches().subList(firstRun.batches().size(), live.batches().size())));
        SAME.assertSameState(sim.snapshot(), CheckpointState.of(query).read(checkpoint));
        return replayed;
    }

    @Test
    void cart_watch(@TempDir Path dir) {
        RunResult<String, CartEvent, CartAlert> rest = seeded(CartWatch.query(),
                s -> s.batch(List.of(CartEvent.add("ana", "boots", at("10:00")), CartEvent.add("bo", "hat", at("10:02"))))
                        .batch(List.of(CartEvent.add("ana", "socks", at("10:05")), CartEvent.checkout("bo", at("10:06")))),
                s -> s.batch(List.of(CartEvent.add("cy", "scarf", at("10:50"))))
                        .batch(List.of(CartEvent.add("ana", "late", at("09:50")))),
                dir);
        assertThat(rest.outputs()).containsExactly(new CartAlert("ana", 2, at("10:05")));
        assertThat(rest.droppedLate()).containsExactly(CartEvent.add("ana", "late", at("09:50")));
    }

    @Test
    void running_count_on_three_partitions(@TempDir Path dir) {
        RunResult<String, String, Tuple2<String, Long>> rest = seeded(RunningCount.query().withShufflePartitions(3),
                s -> s.batch(List.of("a", "b", "a")).batch(List.of("c")),
                s -> s.batch(List.of("a", "c", "d")).batch(List.of("b")),
                dir);
        assertThat(rest.outputs()).containsExactlyInAnyOrder(new Tuple2<>("a", 3L), new Tuple2<>("c", 2L),
                new Tuple2<>("d", 1L), new Tuple2<>("b", 2L));
    }

    @Test
    void fraud_sessions(@TempDir Path dir) {
        RunResult<String, Payment, FraudAlert> rest = seeded(FraudSessions.query(),
                s -> s.batchAt(minute(1), List.of(new Payment("c1", "bookshop", 300_00), new Payment("c2", "fuel", 50_00)))
                        .batchAt(minute(3), List.of(new Payment("c1", "cafe", 250_00))),
                s -> s.batchAt(minute(5), List.of(new Payment("c1", "bookshop", 250_00)))
                        .tick(minute(12))
                        .batchAt(minute(14), List.of(new Payment("c2", "fuel", 10_00))),
                dir);
        assertThat(rest.outputs()).containsExactly(
                new FraudAlert("c1", FraudAlert.MERCHANT_LIMIT, List.of("bookshop"), 550_00));
        assertThat(rest.firedTimers()).extracting(t -> t.key() + "@" + t.expiry()).containsExactly("c2@" + minute(11));
    }

    @Test
    void fraud_state_machine_a_mapGroupsWithState_function(@TempDir Path dir) {
        fraudStateMachineStory(FraudStateMachine.query(), dir);
    }

    @Test
    void fraud_state_processor_its_port(@TempDir Path dir) {
        fraudStateMachineStory(FraudStateProcessor.query(), dir);
    }

    private static void fraudStateMachineStory(TwsQuery<String, Payment, CardStatus> query, Path dir) {
        RunResult<String, Payment, CardStatus> rest = seeded(query,
                s -> s.batchAt(minute(1), List.of(new Payment("c1", "shop", 1_000_00), new Payment("c2", "shop", 2_000_00),
                                new Payment("c3", "shop", 5_00)))
                        .batchAt(minute(5), List.of(new Payment("c2", "shop", 3_000_00))),
                // the checkpoint holds c1's timeout (00:31) and c2's (24:05) with their states
                s -> s.batchAt(minute(20), List.of(new Payment("c2", "shop", 1_00), new Payment("c3", "shop", 1_500_00)))
                        .tick(minute(31))
                        .tick(minute(31).plusMillis(1)),
                dir);
        assertThat(rest.outputs()).containsExactlyInAnyOrder(
                new CardStatus("c2", CardStatus.BLOCKED, CardStatus.DECLINED, 1),
                new CardStatus("c3", CardStatus.SUSPICIOUS, CardStatus.HIGH_AMOUNT, 1),
                new CardStatus("c1", CardStatus.NORMAL, CardStatus.TIMED_OUT, 0));
    }

    @Test
    void ttl_sessions(@TempDir Path dir) {
        RunResult<String, Click, SessionClosed> rest = seeded(TtlSessions.query(),
                s -> s.batchAt(minute(1), List.of(new Click("ana", "home"), new Click("bo", "search")))
                        .batchAt(minute(10), List.of(new Click("ana", "cart"))),
                // a restarted query runs no batch before new data: cy's click at 25 is the first
                s -> s.batchAt(minute(25), List.of(new Click("cy", "home"))).tick(minute(31)),
                dir);
        // ana's "home" (appended at minute 1, TTL 30 min) has expired when her session closes at 31
        assertThat(rest.outputs()).containsExactly(
                new SessionClosed("bo", 1, List.of("search"), minute(21)),
                new SessionClosed("ana", 2, List.of("cart"), minute(30)));
    }

    @Test
    void migration_from_initial_state(@TempDir Path dir) {
        RunResult<String, String, Tuple2<String, Long>> rest = seeded(MigrateFromInitialState.query(),
                s -> s.batch(List.of("a", "c")).batch(List.of("b")),
                s -> s.batch(List.of("a", "b", "d")),
                dir);
        // a: 10 exported + 2; b: 20 + 21 exported + 2; the initial state is not applied again
        assertThat(rest.outputs()).containsExactly(new Tuple2<>("a", 12L), new Tuple2<>("b", 43L),
                new Tuple2<>("d", 1L));
    }
}
