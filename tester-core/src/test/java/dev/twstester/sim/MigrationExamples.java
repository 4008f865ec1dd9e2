package dev.twstester.sim;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.Scenario;
import dev.twstester.TwsQuery;

import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The examples of docs/from-twstester.md, shared by the unit tests (twstester's and Spark's own
 * {@code TwsTester}'s answers) and the live test that pins twstester's.
 */
public final class MigrationExamples {
    private MigrationExamples() {
    }

    /** Example 1 (ProcessingTime mode): key "a" starts at count 3 from the initial state. */
    public static TwsTester<String, String, String> reminders() {
        return new TwsTester<>(new Reminder(), initialCount("a", 3L), TimeMode.ProcessingTime(), OutputMode.Update(),
                scala.Option.empty());
    }

    /** Example 1's calls as a scenario: setProcessingTime(1000), test("a", [now, remind]), setProcessingTime(7000). */
    public static Scenario<Tuple2<String, String>> remindersScenario() {
        return Scenario.<Tuple2<String, String>>builder()
                .batchAt(Instant.ofEpochMilli(1000), List.of(new Tuple2<>("a", "now"), new Tuple2<>("a", "remind")))
                .tick(Instant.ofEpochMilli(7000))
                .build();
    }

    /** Example 2 (EventTime mode): the query's watermark is 5 s behind the latest event time. */
    public static TwsQuery<String, Event, String> echo() {
        return TwsQuery.builder(EventEcho::new)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.STRING())
                .timeMode(TimeMode.EventTime())
                .watermark("ts", Duration.ofSeconds(5))
                .build();
    }

    /** Example 2's calls: test("a", [a@10 s timer+1000]), then test("a", [a@3 s late]). */
    public static Scenario<Event> echoScenario() {
        return Scenario.<Event>builder()
                .batch(List.of(new Event("a", 10_000, "timer+1000")))
                .batch(List.of(new Event("a", 3_000, "late")))
                .build();
    }

    static scala.collection.immutable.List<Tuple2<String, Object>> initialCount(String key, Long count) {
        return CollectionConverters.asScala(List.of(new Tuple2<String, Object>(key, count))).toList();
    }

    public static <T> scala.collection.immutable.List<T> scalaList(List<T> values) {
        return CollectionConverters.asScala(values).toList();
    }
}
