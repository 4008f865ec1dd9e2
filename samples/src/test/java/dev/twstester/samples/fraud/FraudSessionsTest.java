package dev.twstester.samples.fraud;

import static dev.twstester.junit.assertj.TwsAssertions.assertThat;
import static dev.twstester.junit.assertj.TwsAssertions.entry;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.twstester.FiredTimer;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.junit.Simulator;
import dev.twstester.junit.TestSimulator;
import dev.twstester.junit.TwsTest;

@TwsTest
class FraudSessionsTest {
    static TwsQuery<String, Payment, FraudAlert> query() {
        return FraudSessions.query();
    }

    @Simulator TestSimulator<String, Payment, FraudAlert> sim;

    private static Instant minute(int m) {
        return Instant.EPOCH.plus(Duration.ofMinutes(m));
    }

    @Test
    void flagsAMerchantOnceWhenItsSessionTotalGoesOverTheLimit() {
        RunResult<String, Payment, FraudAlert> first = sim.runBatch(new Payment("c1", "shop", 300_00));
        RunResult<String, Payment, FraudAlert> second = sim.runBatch(
                new Payment("c1", "shop", 200_00), new Payment("c1", "shop", 50_00), new Payment("c2", "shop", 10_00));
        RunResult<String, Payment, FraudAlert> third = sim.runBatch(new Payment("c1", "shop", 10_00));

        assertThat(first).outputs().isEmpty();
        // 500.00 is not over the limit; 550.00 is
        assertThat(second).outputs().containsExactly(
                new FraudAlert("c1", FraudAlert.MERCHANT_LIMIT, List.of("shop"), 550_00));
        assertThat(third).outputs().isEmpty();
        assertThat(sim).<String, Long>mapState("spendByMerchant", "c1").containsExactly(entry("shop", 560_00L));
        assertThat(sim).<String, Long>mapState("spendByMerchant", "c2").containsOnlyKeys("shop");
    }

    @Test
    void listsTheMerchantsOfATooBusySessionInSparksMapStateOrder() {
        RunResult<String, Payment, FraudAlert> run = sim.runBatch(
                new Payment("c1", "bookshop", 10_00),
                new Payment("c1", "electronics-outlet", 20_00),
                new Payment("c1", "fuel", 30_00),
                new Payment("c1", "cafe", 4_00),
                new Payment("c1", "zoo", 1_00));

        // encoded-key order: 8-byte word count, then length, then bytes; not insertion, not alphabetical
        List<String> sparkOrder = List.of("cafe", "fuel", "bookshop", "electronics-outlet");
        assertThat(run).outputs().containsExactly(
                new FraudAlert("c1", FraudAlert.TOO_MANY_MERCHANTS, sparkOrder, 64_00));
        assertThat(sim.state().<String, Long>map("spendByMerchant", "c1").keySet())
                .containsExactly("zoo", "cafe", "fuel", "bookshop", "electronics-outlet");
    }

    @Test
    void anIdleCardEndsItsSessionAndStartsAfresh() {
        sim.runBatch(new Payment("c1", "shop", 400_00));                 // batch 0 at 00:00, timer 00:10
        assertThat(sim).timers("c1").containsExactly(minute(10));

        RunResult<String, Payment, FraudAlert> tick9 = sim.advanceProcessingTime(Duration.ofMinutes(9));
        assertThat(tick9.batches()).hasSize(1);
        assertThat(tick9).lastBatch().isNoDataBatch();
        assertThat(sim).<String, Long>mapState("spendByMerchant", "c1").containsOnlyKeys("shop");

        RunResult<String, Payment, FraudAlert> tick10 = sim.advanceProcessingTime(Duration.ofMinutes(1));
        assertThat(tick10).lastBatch().hasBatchTimestamp(minute(10));
        assertThat(tick10).firedTimers().containsExactly(new FiredTimer<>("c1", minute(10)));
        assertThat(tick10).outputs().isEmpty();
        assertThat(sim).hasNoStateFor("c1");

        // 400 + 400 would be over the limit, but the first 400 belonged to the ended session
        assertThat(sim.runBatchAt(minute(11), List.of(new Payment("c1", "shop", 400_00)))).outputs().isEmpty();
        assertThat(sim).history().hasBatchIds(0, 1, 2, 3);
    }

    @Test
    void aPaymentRestartsTheSessionTimer() {
        sim.runBatch(new Payment("c1", "shop", 1_00));

        sim.runBatchAt(minute(5), List.of(new Payment("c1", "cafe", 1_00)));

        assertThat(sim).timers("c1").containsExactly(minute(15));
        assertThat(sim.advanceProcessingTime(Duration.ofMinutes(5))).firedTimers().isEmpty();
        assertThat(sim.advanceProcessingTime(Duration.ofMinutes(5))).firedTimers()
                .containsExactly(new FiredTimer<>("c1", minute(15)));
    }
}
