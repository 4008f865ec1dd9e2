package dev.twstester.sim;

import java.util.Iterator;

import org.apache.spark.api.java.function.MapGroupsWithStateFunction;
import org.apache.spark.sql.streaming.GroupState;

/**
 * A mapGroupsWithState function that returns null for the key {@code "n"} and {@code value} for
 * the others, counting each key's rows in its state.
 */
public class ReturnsNull<O> implements MapGroupsWithStateFunction<String, Event, Long, O> {
    private final O value;

    public ReturnsNull(O value) {
        this.value = value;
    }

    @Override
    public O call(String key, Iterator<Event> rows, GroupState<Long> state) {
        long count = state.exists() ? state.get() : 0L;
        while (rows.hasNext()) {
            rows.next();
            count++;
        }
        state.update(count);
        return key.equals("n") ? null : value;
    }
}
