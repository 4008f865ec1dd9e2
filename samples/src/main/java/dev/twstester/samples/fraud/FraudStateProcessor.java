package dev.twstester.samples.fraud;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;

import dev.twstester.TwsQuery;

import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;

/**
 * {@link FraudStateMachine} ported to {@code transformWithState}: the card's state in
 * {@code ValueState<CardState> "card"}, its timeout as one processing-time timer.
 *
 * <p>Two things a port must get right, both checked by the migration check in this sample's tests:
 * <ul>
 *   <li>{@code mapGroupsWithState} resets a key's timeout on every call unless the call sets it
 *   again; the port deletes the card's timer on every call and registers a new one when the card
 *   keeps state;</li>
 *   <li>a legacy timeout fires when it is strictly before the batch's timestamp, a timer when it is
 *   at or before it: the timer goes one millisecond after the legacy timeout
 *   ({@link #expiryFor}).</li>
 * </ul>
 */
public class FraudStateProcessor extends StatefulProcessor<String, Payment, CardStatus> {
    private static final long serialVersionUID = 1L;

    private final CardRules rules;
    private transient ValueState<CardState> card;

    /** The port with the default rules of {@link FraudStateMachine#FraudStateMachine()}. */
    public FraudStateProcessor() {
        this(CardRules.DEFAULT);
    }

    FraudStateProcessor(CardRules rules) {
        this.rules = rules;
    }

    /** {@code payments.groupByKey(cardId).transformWithState(new FraudStateProcessor(), ProcessingTime, Update, bean(CardStatus))}. */
    public static TwsQuery<String, Payment, CardStatus> query() {
        return query(FraudStateProcessor::new);
    }

    /** The query of another version of the port (the sample's tests try a wrong one). */
    static TwsQuery<String, Payment, CardStatus> query(Supplier<? extends FraudStateProcessor> port) {
        return TwsQuery.builder(port)
                .keyBy(Payment::getCardId, Encoders.STRING())
                .input(Encoders.bean(Payment.class))
                .output(Encoders.bean(CardStatus.class))
                .timeMode(TimeMode.ProcessingTime())
                .outputMode(OutputMode.Update())
                .build();
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        card = getHandle().getValueState("card", Encoders.bean(CardState.class), TTLConfig.NONE());
    }

    @Override
    public Iterator<CardStatus> handleInputRows(String cardId, Iterator<Payment> payments, TimerValues timerValues) {
        CardRules.Outcome outcome = rules.apply(cardId, card.exists() ? card.get() : null,
                CollectionConverters.asJava(payments));
        List<Long> timers = new ArrayList<>();
        getHandle().listTimers().foreach(t -> timers.add((Long) t));
        timers.forEach(getHandle()::deleteTimer);
        if (outcome.state() == null) {
            card.clear();
        } else {
            card.update(outcome.state());
            getHandle().registerTimer(expiryFor(timerValues.getCurrentProcessingTimeInMs(),
                    rules.timeoutFor(outcome.state()).toMillis()));
        }
        return CollectionConverters.asScala(List.of(outcome.status()).iterator());
    }

    /**
     * The timer for a legacy {@code setTimeoutDuration(durationMs)} in a batch at {@code batchTimeMs}:
     * the legacy timeout is {@code batchTimeMs + durationMs} and fires strictly after it.
     */
    protected long expiryFor(long batchTimeMs, long durationMs) {
        return batchTimeMs + durationMs + 1;
    }

    @Override
    public Iterator<CardStatus> handleExpiredTimer(String cardId, TimerValues timerValues, ExpiredTimerInfo timer) {
        card.clear();
        return CollectionConverters.asScala(List.of(CardRules.timedOut(cardId)).iterator());
    }
}
