package dev.twstester.samples.mutants;

import java.util.List;

import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.TimerValues;

import dev.twstester.samples.fraud.CardStatus;
import dev.twstester.samples.fraud.FraudStateProcessor;

import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;

/** Bug: the port's timeout timer answers TIMED_OUT but does not clear the card's state. */
class PortStateKeptOnTimeout extends FraudStateProcessor {
    private static final long serialVersionUID = 1L;
    static final String BUG = "the port's timeout timer answers TIMED_OUT but does not clear the card's state";

    @Override
    public Iterator<CardStatus> handleExpiredTimer(String cardId, TimerValues timerValues, ExpiredTimerInfo timer) {
        CardStatus timedOut = new CardStatus(cardId, CardStatus.NORMAL, CardStatus.TIMED_OUT, 0);
        return CollectionConverters.asScala(List.of(timedOut).iterator());
    }
}
