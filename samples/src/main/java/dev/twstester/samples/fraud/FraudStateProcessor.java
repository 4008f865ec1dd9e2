package dev.twstester.samples.fraud;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessorWithInitialState;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;

import dev.twstester.GroupsWithState;
import dev.twstester.TwsQuery;
import dev.twstester.sim.StateView;

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
 *
 * <p>The port takes over the machine's state as its initial state ({@link #handover}): each card's
 * {@link CardState} and pending timeout as a {@link CardHandover}, read from the old operator's
 * state, as Spark's migration from {@code mapGroupsWithState} reads the old checkpoint with the
 * state data source and passes it to {@code transformWithState} as initial state.
 */
public class FraudStateProcessor extends StatefulProcessorWithInitialState<String, Payment, CardStatus, CardHandover> {
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
    public static TwsQuery<String, Payment, CardStatus> query(Supplier<? extends FraudStateProcessor> port) {
        return builder(port).build();
    }

    /** The port's query taking over {@code handedOver} (from {@link #handover}) as its initial state. */
    public static TwsQuery<String, Payment, CardStatus> query(List<Map.Entry<String, CardHandover>> handedOver) {
        return builder(FraudStateProcessor::new).initialState(handedOver, Encoders.bean(CardHandover.class)).build();
    }

    private static TwsQuery.Builder<String, Payment, CardStatus> builder(Supplier<? extends FraudStateProcessor> port) {
        return TwsQuery.builder(port)
                .keyBy(Payment::getCardId, Encoders.STRING())
                .input(Encoders.bean(Payment.class))
                .output(Encoders.bean(CardStatus.class))
                .timeMode(TimeMode.ProcessingTime())
                .outputMode(OutputMode.Update());
    }

    /**
     * Every card's state and pending timeout in the state of {@link FraudStateMachine}'s query, read
     * from a simulator of it (e.g. one restored from the old query's checkpoint), in key order.
     */
    public static List<Map.Entry<String, CardHandover>> handover(StateView<String> machineState) {
        List<Map.Entry<String, CardHandover>> out = new ArrayList<>();
        for (String cardId : machineState.keys()) {
            machineState.<CardState>value(GroupsWithState.STATE_VARIABLE, cardId).ifPresent(state -> {
                List<java.time.Instant> timeout = machineState.timers(cardId);
                out.add(Map.entry(cardId, new CardHandover(state,
                        timeout.isEmpty() ? null : timeout.get(0).toEpochMilli())));
            });
        }
        return out;
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        card = getHandle().getValueState("card", Encoders.bean(CardState.class), TTLConfig.NONE());
    }

    /** A card handed over from the machine: its state, and its pending timeout as the port's timer. */
    @Override
    public void handleInitialState(String cardId, CardHandover handedOver, TimerValues timerValues) {
        card.update(handedOver.state());
        if (handedOver.getTimeoutMs() != null) {
            getHandle().registerTimer(handedOver.getTimeoutMs() + 1);
        }
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
