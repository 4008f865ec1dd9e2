package dev.twstester.sim;

import java.util.Iterator;

import org.apache.spark.api.java.function.MapGroupsWithStateFunction;
import org.apache.spark.sql.streaming.GroupState;

/**
 * A mapGroupsWithState function with a bean state and bean output, EventTimeTimeout: the state
 * collects the rows' commands and the latest event time, the timeout is 5 s after it. A row
 * {@code peek} changes the state object {@code get()} returned without {@code update}: Spark keeps
 * that change only when it writes the row anyway, because the timeout changed. A timed-out key
 * emits {@code expired after <commands>} and is removed.
 */
public class LastSeen implements MapGroupsWithStateFunction<String, Event, OutEvent, OutEvent> {
    @Override
    public OutEvent call(String key, Iterator<Event> rows, GroupState<OutEvent> state) {
        if (state.hasTimedOut()) {
            OutEvent last = state.get();
            state.remove();
            return new OutEvent(key, last.getOutTs().getTime(), "expired after " + last.getWhat());
        }
        OutEvent current = state.exists() ? state.get() : new OutEvent(key, 0, "");
        long max = current.getOutTs().getTime();
        StringBuilder what = new StringBuilder(current.getWhat());
        boolean peek = false;
        while (rows.hasNext()) {
            Event e = rows.next();
            max = Math.max(max, e.getTs().getTime());
            if (e.getCmd().equals("peek")) {
                peek = true;
            } else {
                what.append(e.getCmd());
            }
        }
        if (peek) {
            current.setWhat("changed without update");   // the object get() returned
        } else {
            state.update(new OutEvent(key, max, what.toString()));
        }
        state.setTimeoutTimestamp(max + 5000);
        return new OutEvent(key, max, state.exists() ? state.get().getWhat() : "none");
    }
}
