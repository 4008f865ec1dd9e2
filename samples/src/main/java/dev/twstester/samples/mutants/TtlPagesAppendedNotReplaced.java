package dev.twstester.samples.mutants;

import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.streaming.TimerValues;

import dev.twstester.samples.ttl.Click;
import dev.twstester.samples.ttl.SessionClosed;
import dev.twstester.samples.ttl.TtlSessions;

import scala.collection.Iterator;

/** Bug: the page list is read, extended and written back with appendList instead of put, doubling it. */
class TtlPagesAppendedNotReplaced extends TtlSessions {
    private static final long serialVersionUID = 1L;
    static final String BUG = "the page list is read, extended and written back with appendList instead of put, doubling it";

    @Override
    public Iterator<SessionClosed> handleInputRows(String user, Iterator<Click> rows, TimerValues timerValues) {
        long n = clicks.exists() ? clicks.get() : 0L;
        List<String> all = new ArrayList<>();
        pages.get().foreach(all::add);
        while (rows.hasNext()) {
            all.add(rows.next().getPage());
            n++;
        }
        pages.appendList(all.toArray(new String[0]));
        clicks.update(n);
        restartCloseTimer(timerValues);
        return Iterator.empty();
    }
}
