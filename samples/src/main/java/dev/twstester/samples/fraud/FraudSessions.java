package dev.twstester.samples.fraud;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.MapState;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;

import dev.twstester.TwsQuery;

import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Card sessions with a MapState sample: {@code MapState<String, Long> "spendByMerchant"} per card
 * holds the session's spend per merchant, in cents. A session ends when the card is idle for
 * {@code sessionGap} of processing time (a processing-time timer clears the map, no output).
 *
 * <p>Alerts, each raised once, by the payment that crosses the line:
 * <ul>
 *   <li>{@code MERCHANT_LIMIT}: one merchant's session total goes over {@code limitCents};</li>
 *   <li>{@code TOO_MANY_MERCHANTS}: the session reaches {@code maxMerchants + 1} merchants. The
 *   alert lists the merchants in MapState iteration order, which is Spark's (RocksDB) order of the
 *   encoded map keys: for short strings, by 8-byte word count, then length, then bytes. So
 *   {@code bookshop, electronics-outlet, fuel, cafe} are listed
 *   {@code cafe, fuel, bookshop, electronics-outlet}: neither insertion nor alphabetical order.</li>
 * </ul>
 */
public class FraudSessions extends StatefulProcessor<String, Payment, FraudAlert> {
    private static final long serialVersionUID = 1L;

    public static final long DEFAULT_LIMIT_CENTS = 500_00L;
    public static final int DEFAULT_MAX_MERCHANTS = 3;
    public static final Duration DEFAULT_SESSION_GAP = Duration.ofMinutes(10);

    protected final long limitCents;
    protected final int maxMerchants;
    protected final long sessionGapMs;

    protected transient MapState<String, Long> spendByMerchant;

    public FraudSessions() {
        this(DEFAULT_LIMIT_CENTS, DEFAULT_MAX_MERCHANTS, DEFAULT_SESSION_GAP);
    }

    public FraudSessions(long limitCents, int maxMerchants, Duration sessionGap) {
        this.limitCents = limitCents;
        this.maxMerchants = maxMerchants;
        this.sessionGapMs = sessionGap.toMillis();
    }

    /** The query with the default limit ($500 per merchant), 3 merchants and a 10-minute session gap. */
    public static TwsQuery<String, Payment, FraudAlert> query() {
        return query(DEFAULT_LIMIT_CENTS, DEFAULT_MAX_MERCHANTS, DEFAULT_SESSION_GAP);
    }

    /** {@code payments.groupByKey(cardId).transformWithState(new FraudSessions(...), ProcessingTime, Update, bean(FraudAlert))}. */
    public static TwsQuery<String, Payment, FraudAlert> query(long limitCents, int maxMerchants, Duration sessionGap) {
        return query(() -> new FraudSessions(limitCents, maxMerchants, sessionGap));
    }

    /** The same query running another version of the processor (a subclass, such as a refactoring of it). */
    public static TwsQuery<String, Payment, FraudAlert> query(Supplier<? extends FraudSessions> version) {
        return TwsQuery.builder(version)
                .keyBy(Payment::getCardId, Encoders.STRING())
                .input(Encoders.bean(Payment.class))
                .output(Encoders.bean(FraudAlert.class))
                .timeMode(TimeMode.ProcessingTime())
                .outputMode(OutputMode.Update())
                .build();
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        spendByMerchant = getHandle().getMapState("spendByMerchant", Encoders.STRING(), Encoders.LONG(),
                TTLConfig.NONE());
    }

    @Override
    public Iterator<FraudAlert> handleInputRows(String cardId, Iterator<Payment> payments, TimerValues timerValues) {
        List<FraudAlert> alerts = new ArrayList<>();
        while (payments.hasNext()) {
            Payment p = payments.next();
            boolean newMerchant = !spendByMerchant.containsKey(p.getMerchant());
            long before = newMerchant ? 0L : spendByMerchant.getValue(p.getMerchant());
            long after = before + p.getAmountCents();
            spendByMerchant.updateValue(p.getMerchant(), after);
            if (crossesLimit(before, after)) {
                alerts.add(new FraudAlert(cardId, FraudAlert.MERCHANT_LIMIT, List.of(p.getMerchant()), after));
            }
            if (newMerchant) {
                List<String> merchants = new ArrayList<>();
                spendByMerchant.keys().foreach(merchants::add);
                if (merchants.size() == maxMerchants + 1) {
                    long[] total = {0L};
                    spendByMerchant.values().foreach(v -> total[0] += v);
                    alerts.add(new FraudAlert(cardId, FraudAlert.TOO_MANY_MERCHANTS, merchants, total[0]));
                }
            }
        }
        restartSessionTimer(timerValues.getCurrentProcessingTimeInMs() + sessionGapMs);
        return CollectionConverters.asScala(alerts.iterator());
    }

    /** Whether a merchant's session spend going from {@code before} to {@code after} cents crosses the limit. */
    protected boolean crossesLimit(long before, long after) {
        return before <= limitCents && after > limitCents;
    }

    protected void restartSessionTimer(long expiry) {
        List<Long> existing = new ArrayList<>();
        getHandle().listTimers().foreach(t -> existing.add((Long) t));
        existing.forEach(getHandle()::deleteTimer);
        getHandle().registerTimer(expiry);
    }

    /** The card was idle for the session gap: the session ends and its spend is forgotten. */
    @Override
    public Iterator<FraudAlert> handleExpiredTimer(String cardId, TimerValues timerValues, ExpiredTimerInfo timer) {
        spendByMerchant.clear();
        return Iterator.empty();
    }
}
