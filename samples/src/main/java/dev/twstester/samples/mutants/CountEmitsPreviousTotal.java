package dev.twstester.samples.mutants;

import java.util.List;

import org.apache.spark.sql.streaming.TimerValues;

import dev.twstester.samples.counts.RunningCount;

import scala.Tuple2;
import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;

/** Bug: the output is the count read from state, before this batch's rows are added. */
class CountEmitsPreviousTotal extends RunningCount {
    private static final long serialVersionUID = 1L;
    static final String BUG = "the output is the count read from state, before this batch's rows are added";

    @Override
    public Iterator<Tuple2<String, Long>> handleInputRows(String key, Iterator<String> rows, TimerValues timerValues) {
        long before = count.exists() ? count.get() : 0L;
        long n = before;
        while (rows.hasNext()) {
            rows.next();
            n++;
        }
        count.update(n);
        return CollectionConverters.asScala(List.of(new Tuple2<>(key, before)).iterator());
    }
}
