package dev.twstester.sim;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import org.apache.spark.api.java.function.FlatMapGroupsWithStateFunction;
import org.apache.spark.api.java.function.MapGroupsWithStateFunction;
import org.apache.spark.sql.streaming.GroupState;

/**
 * A flatMapGroupsWithState function driven by its input (the legacy operator's experiments): the
 * state counts a key's rows, each row's command is a {@code ;}-separated list of operations on the
 * {@code GroupState}, and every call emits what it saw. Operations: {@code inc} (count + 1, the
 * default), {@code peek} (nothing: the timeout is reset), {@code remove}, {@code dur:N}
 * ({@code setTimeoutDuration(N)}), {@code at:N} ({@code setTimeoutTimestamp(N)}), {@code et:+N}
 * (the row's event time + N), {@code wm:+N} (the watermark + N), {@code wm} and {@code pt} (emit the watermark / processing time),
 * {@code get} ({@code get()}, failing without state), {@code null} ({@code update(null)}),
 * {@code boom} (throw), {@code lazyboom} (the returned iterator throws).
 *
 * <p>A timed-out call emits {@code key timed out <count>}; a key starting with {@code keep} then
 * does nothing (the state stays, without a timeout), one starting with {@code rearm} sets a new
 * timeout 1000 ms later (duration, or watermark + 1000 with {@code eventTime}), others remove the state.
 * A call with no rows that has not timed out (a key with initial state only) emits {@code key=<count>};
 * a {@code rearm} key then sets such a timeout too.
 */
public class LegacyProbe implements FlatMapGroupsWithStateFunction<String, Event, Long, String> {
    private final boolean eventTime;

    public LegacyProbe(boolean eventTime) {
        this.eventTime = eventTime;
    }

    @Override
    public Iterator<String> call(String key, Iterator<Event> rows, GroupState<Long> state) {
        List<String> out = new ArrayList<>();
        if (state.hasTimedOut()) {
            out.add(key + " timed out " + (state.exists() ? state.get() : "none"));
            if (key.startsWith("rearm")) {
                if (eventTime) {
                    state.setTimeoutTimestamp(state.getCurrentWatermarkMs() + 1000);
                } else {
                    state.setTimeoutDuration(1000);
                }
            } else if (!key.startsWith("keep")) {
                state.remove();
            }
            return out.iterator();
        }
        boolean lazyBoom = false;
        if (!rows.hasNext() && key.startsWith("rearm")) { // a key with initial state only: arm its first timeout
            if (eventTime) {
                state.setTimeoutTimestamp(state.getCurrentWatermarkMs() + 1000);
            } else {
                state.setTimeoutDuration(1000);
            }
        }
        while (rows.hasNext()) {
            Event e = rows.next();
            String cmd = e.getCmd() == null || e.getCmd().isEmpty() ? "inc" : e.getCmd();
            for (String op : cmd.split(";")) {
                if (op.equals("inc")) {
                    state.update((state.exists() ? state.get() : 0L) + 1);
                } else if (op.equals("peek")) {
                    // no state call: the timeout is reset all the same
                } else if (op.equals("remove")) {
                    state.remove();
                } else if (op.startsWith("dur:")) {
                    state.setTimeoutDuration(Long.parseLong(op.substring(4)));
                } else if (op.startsWith("at:")) {
                    state.setTimeoutTimestamp(Long.parseLong(op.substring(3)));
                } else if (op.startsWith("et:+")) {
                    state.setTimeoutTimestamp(e.getTs().getTime() + Long.parseLong(op.substring(4)));
                } else if (op.startsWith("wm:+")) {
                    state.setTimeoutTimestamp(state.getCurrentWatermarkMs() + Long.parseLong(op.substring(4)));
                } else if (op.equals("wm")) {
                    out.add(key + " wm " + state.getCurrentWatermarkMs());
                } else if (op.equals("pt")) {
                    out.add(key + " pt " + state.getCurrentProcessingTimeMs());
                } else if (op.equals("get")) {
                    out.add(key + " get " + state.get());
                } else if (op.equals("null")) {
                    state.update(null);
                } else if (op.equals("boom")) {
                    throw new IllegalStateException("boom " + key);
                } else if (op.equals("lazyboom")) {
                    lazyBoom = true;
                } else {
                    throw new IllegalArgumentException("unknown probe operation " + op);
                }
            }
        }
        out.add(key + "=" + (state.exists() ? state.get() : "none"));
        if (lazyBoom) {
            Iterator<String> ready = out.iterator();
            return new Iterator<>() {
                @Override
                public boolean hasNext() {
                    return true;
                }

                @Override
                public String next() {
                    if (ready.hasNext()) {
                        return ready.next();
                    }
                    throw new IllegalStateException("lazy boom " + key);
                }
            };
        }
        return out.iterator();
    }

    /** The same as a mapGroupsWithState function: one row per call, the probe's rows joined. */
    public static final class AsMap implements MapGroupsWithStateFunction<String, Event, Long, String> {
        private final LegacyProbe probe;

        public AsMap(boolean eventTime) {
            this.probe = new LegacyProbe(eventTime);
        }

        @Override
        public String call(String key, Iterator<Event> rows, GroupState<Long> state) {
            List<String> out = new ArrayList<>();
            probe.call(key, rows, state).forEachRemaining(out::add);
            return String.join(" | ", out);
        }
    }
}
