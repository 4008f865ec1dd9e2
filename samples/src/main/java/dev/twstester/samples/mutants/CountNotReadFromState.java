package dev.twstester.samples.mutants;

import java.util.List;

import org.apache.spark.sql.streaming.TimerValues;

import dev.twstester.samples.counts.RunningCount;

import scala.Tuple2;
import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;

/** Bug: each batch counts from zero: the stored count is written but never read. */
class CountNotReadFromState extends RunningCount {
    private static final long serialVersionUID = 1L;
    static final String BUG = "each batch counts from zero: the stored count is written but never read";

    @Override
    public Iterator<Tuple2<String, Long>> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
        long n = 0L;
        while (rows.hasNext()) {
            rows.next();
            n++;
        }
        count.update(n);
        return CollectionConverters.asScala(List.of(new Tuple2<>(key, n)).iterator());
    }
}
