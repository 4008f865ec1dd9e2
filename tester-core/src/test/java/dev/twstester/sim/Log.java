package dev.twstester.sim;

import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.streaming.TimerValues;

import scala.jdk.javaapi.CollectionConverters;

/** What test processors observed, in call order (the experiments' Log). */
public final class Log {
    private static final List<String> LINES = new ArrayList<>();

    private Log() {}

    static synchronized void add(String line) {
        LINES.add(line);
    }

    public static synchronized List<String> drain() {
        List<String> out = new ArrayList<>(LINES);
        LINES.clear();
        return out;
    }

    static String tv(TimerValues t) {
        return "pt=" + t.getCurrentProcessingTimeInMs() + ",wm=" + t.getCurrentWatermarkInMs();
    }

    static <T> List<T> list(scala.collection.Iterator<T> it) {
        List<T> out = new ArrayList<>();
        while (it.hasNext()) {
            out.add(it.next());
        }
        return out;
    }

    static <T> scala.collection.Iterator<T> it(List<T> list) {
        return CollectionConverters.asScala(list.iterator());
    }
}
