package dev.twstester.samples.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.TwsQuery;
import dev.twstester.samples.bench.ColdSuiteScenarios.Clock;
import dev.twstester.samples.cart.CartAlert;
import dev.twstester.samples.cart.CartEvent;
import dev.twstester.samples.cart.CartWatch;
import dev.twstester.samples.counts.RunningCount;
import dev.twstester.samples.fraud.FraudAlert;
import dev.twstester.samples.fraud.FraudSessions;
import dev.twstester.samples.fraud.Payment;
import dev.twstester.samples.ttl.Click;
import dev.twstester.samples.ttl.SessionClosed;
import dev.twstester.samples.ttl.TtlSessions;

import scala.Function1;
import scala.Option;
import scala.Tuple2;


/**
 * The four families of benchmark (6)'s cold suite ({@link ColdSuiteScenarios}): each sample
 * processor with its query, how a test drives its clock, and how its outputs compare between the
 * simulator and Spark's {@code TwsTester}:
 * <pre>{@code
 * ColdSuiteFamilies.Family<String, CartEvent, CartAlert> cart = new ColdSuiteFamilies.Cart();
 * TwsQuery<String, CartEvent, CartAlert> query = cart.query();   // new encoders on every call, as in a test
 * }</pre>
 */
final class ColdSuiteFamilies {
    private ColdSuiteFamilies() {
    }

    /**
     * A processor, its query and how to drive and compare it. The query is built anew on each call
     * of {@link #query()}, with new encoder instances, as in a test.
     */
    abstract static class Family<K, I, O> {
        final String name;
        final Clock clock;

        Family(String name, Clock clock) {
            this.name = name;
            this.clock = clock;
        }

        /** The query a test builds (new encoders every call). */
        abstract TwsQuery<K, I, O> query();

        /** A new processor instance for TwsTester. */
        abstract StatefulProcessor<K, I, O> processor();

        abstract K key(I row);

        TimeMode timeMode() {
            return switch (clock) {
                case EVENT_TIME -> TimeMode.EventTime();
                case PROCESSING_TIME -> TimeMode.ProcessingTime();
                case NONE -> TimeMode.None();
            };
        }

        /** Event time in ms (EventTime families). */
        long eventTimeMs(I row) {
            throw new UnsupportedOperationException(name + " has no event time");
        }

        long watermarkDelayMs() {
            return 0;
        }

        /** TwsTester's event-time extractor (EventTime families), in ms as its late filter compares. */
        Option<Function1<I, Object>> eventTimeExtractor() {
            if (clock != Clock.EVENT_TIME) {
                return Option.empty();
            }
            Function1<I, Object> f = row -> eventTimeMs(row);
            return Option.apply(f);
        }

        /** An output row in full. */
        String full(O out) {
            return String.valueOf(out);
        }

        /** An output row as far as both engines' semantics agree. */
        String comparable(O out) {
            return full(out);
        }
    }

    static final class Cart extends Family<String, CartEvent, CartAlert> {
        Cart() {
            super("cart", Clock.EVENT_TIME);
        }

        @Override
        TwsQuery<String, CartEvent, CartAlert> query() {
            return CartWatch.query();
        }

        @Override
        StatefulProcessor<String, CartEvent, CartAlert> processor() {
            return new CartWatch();
        }

        @Override
        String key(CartEvent row) {
            return row.getUserId();
        }

        @Override
        long eventTimeMs(CartEvent row) {
            return row.getTs().getTime();
        }

        @Override
        long watermarkDelayMs() {
            return CartWatch.WATERMARK_DELAY.toMillis();
        }
    }

    static final class Fraud extends Family<String, Payment, FraudAlert> {
        final long limitCents;
        final int maxMerchants;
        final Duration gap;

        Fraud(long limitCents, int maxMerchants, Duration gap) {
            super("fraud", Clock.PROCESSING_TIME);
            this.limitCents = limitCents;
            this.maxMerchants = maxMerchants;
            this.gap = gap;
        }

        @Override
        TwsQuery<String, Payment, FraudAlert> query() {
            return FraudSessions.query(limitCents, maxMerchants, gap);
        }

        @Override
        StatefulProcessor<String, Payment, FraudAlert> processor() {
            return new FraudSessions(limitCents, maxMerchants, gap);
        }

        @Override
        String key(Payment row) {
            return row.getCardId();
        }

        /** The merchants sorted: their order is MapState iteration order, which differs between the engines. */
        @Override
        String comparable(FraudAlert out) {
            List<String> merchants = new ArrayList<>(out.getMerchants());
            Collections.sort(merchants);
            return out.getCardId() + "|" + out.getReason() + "|" + merchants + "|" + out.getTotalCents();
        }
    }

    static final class Counts extends Family<String, String, Tuple2<String, Long>> {
        Counts() {
            super("counts", Clock.NONE);
        }

        @Override
        TwsQuery<String, String, Tuple2<String, Long>> query() {
            return RunningCount.query();
        }

        @Override
        StatefulProcessor<String, String, Tuple2<String, Long>> processor() {
            return new RunningCount();
        }

        @Override
        String key(String row) {
            return row;
        }
    }

    static final class Ttl extends Family<String, Click, SessionClosed> {
        final Duration idleGap;

        Ttl(Duration idleGap) {
            super("ttl", Clock.PROCESSING_TIME);
            this.idleGap = idleGap;
        }

        @Override
        TwsQuery<String, Click, SessionClosed> query() {
            return TtlSessions.query(idleGap);
        }

        @Override
        StatefulProcessor<String, Click, SessionClosed> processor() {
            return new TtlSessions(idleGap);
        }

        @Override
        String key(Click row) {
            return row.getUser();
        }

        /**
         * TwsTester ignores TTL, so only the user and the close time: the pages (30-minute TTL per
         * element) and the click count (30-minute TTL from its last update) depend on the batch
         * timestamp of the tick that fires the idle timer, which can be up to 25 minutes after it
         * was due; the simulator then reports what TTL left, down to 0 clicks.
         */
        @Override
        String comparable(SessionClosed out) {
            return out.getUser() + "|" + out.getClosedAt().toInstant();
        }
    }
}
