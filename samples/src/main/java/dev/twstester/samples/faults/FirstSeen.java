package dev.twstester.samples.faults;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.MapState;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;

import dev.twstester.TwsQuery;

import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Emits {@code "user:page"} the first time a user visits a page. Rows are {@code "user,page"}.
 *
 * <p>Two versions. {@link Leaky} remembers visited pages in an instance field: it passes a
 * one-user test, but Spark runs all users of a partition through one instance, so a page one user
 * visited is "already seen" for the next user of the same partition, and which users share an
 * instance depends on {@code spark.sql.shuffle.partitions}; it also forgets everything at the next
 * batch, when Spark deserializes a fresh instance. {@link Fixed} keeps the pages in a
 * {@code MapState}. {@code KeyIsolationCheck} tells the two apart.
 */
public final class FirstSeen {
    private FirstSeen() {
    }

    /** {@code visits.groupByKey(user).transformWithState(processor, None, Update, STRING)}. */
    public static TwsQuery<String, String, String> query(java.util.function.Supplier<StatefulProcessor<String, String, String>> processor) {
        return TwsQuery.builder(processor)
                .keyBy(row -> row.substring(0, row.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .build();
    }

    /** The bug: per-user data in an instance field. */
    public static class Leaky extends StatefulProcessor<String, String, String> {
        private static final long serialVersionUID = 1L;
        private final Set<String> seen = new HashSet<>();

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
        }

        @Override
        public Iterator<String> handleInputRows(String user, Iterator<String> rows, TimerValues timerValues) {
            List<String> out = new ArrayList<>();
            while (rows.hasNext()) {
                String page = rows.next().substring(user.length() + 1);
                if (seen.add(page)) {
                    out.add(user + ":" + page);
                }
            }
            return CollectionConverters.asScala(out.iterator());
        }
    }

    /** The fix: per-user data in state, keyed by the implicit grouping key. */
    public static class Fixed extends StatefulProcessor<String, String, String> {
        private static final long serialVersionUID = 1L;
        protected transient MapState<String, Boolean> seen;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            seen = getHandle().getMapState("seen", Encoders.STRING(), Encoders.BOOLEAN(), TTLConfig.NONE());
        }

        @Override
        public Iterator<String> handleInputRows(String user, Iterator<String> rows, TimerValues timerValues) {
            List<String> out = new ArrayList<>();
            while (rows.hasNext()) {
                String page = rows.next().substring(user.length() + 1);
                if (!seen.containsKey(page)) {
                    seen.updateValue(page, true);
                    out.add(user + ":" + page);
                }
            }
            return CollectionConverters.asScala(out.iterator());
        }
    }
}
