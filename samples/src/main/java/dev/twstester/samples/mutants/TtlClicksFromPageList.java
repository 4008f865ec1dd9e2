package dev.twstester.samples.mutants;

import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.streaming.TimerValues;

import dev.twstester.samples.ttl.Click;
import dev.twstester.samples.ttl.SessionClosed;
import dev.twstester.samples.ttl.TtlSessions;

import scala.collection.Iterator;

/** Bug: clicks are counted as the pages still listed, whose TTL a later click does not refresh. */
class TtlClicksFromPageList extends TtlSessions {
    private static final long serialVersionUID = 1L;
    static final String BUG = "clicks are counted as the pages still listed, whose TTL a later click does not refresh";

    @Override
    public Iterator<SessionClosed> handleInputRows(String user, Iterator<Click> rows, TimerValues timerValues) {
        while (rows.hasNext()) {
            pages.appendValue(rows.next().getPage());
        }
        List<String> listed = new ArrayList<>();
        pages.get().foreach(listed::add);
        clicks.update((long) listed.size());
        restartCloseTimer(timerValues);
        return Iterator.empty();
    }
}
