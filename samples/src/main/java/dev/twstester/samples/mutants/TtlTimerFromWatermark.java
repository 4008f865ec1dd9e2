package dev.twstester.samples.mutants;

import org.apache.spark.sql.streaming.TimerValues;

import dev.twstester.samples.ttl.Click;
import dev.twstester.samples.ttl.SessionClosed;
import dev.twstester.samples.ttl.TtlSessions;

import scala.collection.Iterator;

/** Bug: the processing-time close timer is set from the watermark (event time), which is 0 in this mode. */
public class TtlTimerFromWatermark extends TtlSessions {
    private static final long serialVersionUID = 1L;
    static final String BUG = "the processing-time close timer is set from the watermark (event time), which is 0 in this mode";

    @Override
    public Iterator<SessionClosed> handleInputRows(String user, Iterator<Click> rows, TimerValues timerValues) {
        long n = clicks.exists() ? clicks.get() : 0L;
        while (rows.hasNext()) {
            pages.appendValue(rows.next().getPage());
            n++;
        }
        clicks.update(n);
        restartCloseTimer(timerValues.getCurrentWatermarkInMs());
        return Iterator.empty();
    }
}
