package dev.twstester.samples.mutants;

import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.TimerValues;

import dev.twstester.samples.fraud.FraudAlert;
import dev.twstester.samples.fraud.FraudSessions;

import scala.collection.Iterator;

/** Bug: the session end removes the map entry keyed by the card id instead of clearing the card's map. */
class FraudSessionEndRemovesCardKey extends FraudSessions {
    private static final long serialVersionUID = 1L;
    static final String BUG = "the session end removes the map entry keyed by the card id instead of clearing the card's map";

    @Override
    public Iterator<FraudAlert> handleExpiredTimer(String cardId, TimerValues timerValues, ExpiredTimerInfo timer) {
        spendByMerchant.removeKey(cardId);
        return Iterator.empty();
    }
}
