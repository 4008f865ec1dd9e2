package dev.twstester.samples.mutants;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.apache.spark.sql.streaming.TimerValues;

import dev.twstester.samples.faults.FirstSeen;

import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;

/** Bug: a per-instance cache of seen pages, meant to save state reads, is shared by all users of a partition. */
class FirstSeenSharedCache extends FirstSeen.Fixed {
    private static final long serialVersionUID = 1L;
    static final String BUG = "a per-instance cache of seen pages, meant to save state reads, is shared by all users of a partition";
    private final Set<String> cache = new HashSet<>();

    @Override
    public Iterator<String> handleInputRows(String user, Iterator<String> rows, TimerValues timerValues) {
        List<String> out = new ArrayList<>();
        while (rows.hasNext()) {
            String page = rows.next().substring(user.length() + 1);
            if (!cache.contains(page) && !seen.containsKey(page)) {
                seen.updateValue(page, true);
                out.add(user + ":" + page);
            }
            cache.add(page);
        }
        return CollectionConverters.asScala(out.iterator());
    }
}
