package dev.twstester.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.apache.logging.log4j.LogManager;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;

import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.TwsSimulator;
import dev.twstester.spark.LiveRunner;

import scala.jdk.javaapi.CollectionConverters;

/**
 * The JVM {@link SparkLogsTest} starts, as a user's test would run: its class path has no Log4j
 * configuration (unless the test gives one). Modes: {@code sim} runs a bean-encoded query (the
 * native encoders) and one whose state falls back to Spark's encoder; {@code live} runs the bean
 * query on live Spark; {@code levels} prints the level of Spark's logger after
 * {@code SparkLogs.simulator()}, {@code live()} and {@code simulator()} again. What the child itself
 * prints goes to stdout; anything on stderr came from Spark or Log4j.
 */
public final class SparkLogsChild {
    private SparkLogsChild() {}

    /** The input rows. */
    public static class Click {
        private String user;
        private long at;

        public Click() {}

        Click(String user, long at) {
            this.user = user;
            this.at = at;
        }

        public String getUser() {
            return user;
        }

        public void setUser(String user) {
            this.user = user;
        }

        public long getAt() {
            return at;
        }

        public void setAt(long at) {
            this.at = at;
        }
    }

    /** Counts clicks per user ({@code Encoders.LONG()} state) and emits {@code user=count}. */
    public static class Counter extends StatefulProcessor<String, Click, String> {
        private static final long serialVersionUID = 1L;
        private transient ValueState<Long> count;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            count = getHandle().getValueState("count", Encoders.LONG(), TTLConfig.NONE());
        }

        @Override
        public scala.collection.Iterator<String> handleInputRows(String user, scala.collection.Iterator<Click> clicks,
                TimerValues timerValues) {
            long n = count.exists() ? count.get() : 0;
            while (clicks.hasNext()) {
                clicks.next();
                n++;
            }
            count.update(n);
            return CollectionConverters.asScala(List.of(user + "=" + n).iterator());
        }
    }

    /** Remembers a UUID per user in {@code Encoders.javaSerialization} state: Spark's own encoder. */
    public static class Remember extends StatefulProcessor<String, Click, String> {
        private static final long serialVersionUID = 1L;
        private transient ValueState<UUID> id;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            id = getHandle().getValueState("id", Encoders.javaSerialization(UUID.class), TTLConfig.NONE());
        }

        @Override
        public scala.collection.Iterator<String> handleInputRows(String user, scala.collection.Iterator<Click> clicks,
                TimerValues timerValues) {
            while (clicks.hasNext()) {
                clicks.next();
            }
            id.update(UUID.nameUUIDFromBytes(user.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
            return CollectionConverters.asScala(List.of(user + "=" + id.get()).iterator());
        }
    }

    static TwsQuery<String, Click, String> query(boolean catalystState) {
        Encoder<Click> clicks = Encoders.bean(Click.class);
        return TwsQuery.builder(catalystState ? Remember::new : Counter::new)
                .keyBy(Click::getUser, Encoders.STRING())
                .input(clicks)
                .output(Encoders.STRING())
                .timeMode(TimeMode.None())
                .outputMode(OutputMode.Update())
                .build();
    }

    static List<Click> clicks() {
        return List.of(new Click("ana", 1), new Click("bo", 2), new Click("ana", 3));
    }

    static List<String> sorted(List<String> outputs) {
        List<String> s = new ArrayList<>(outputs);
        s.sort(null);
        return s;
    }

    /** Runs the modes named by the arguments, in order. */
    public static void main(String[] args) {
        for (String mode : args) {
            switch (mode) {
                case "sim" -> {
                    TwsSimulator<String, Click, String> bean = new TwsSimulator<>(query(false));
                    System.out.println("bean: " + sorted(bean.runBatch(clicks()).outputs()));
                    TwsSimulator<String, Click, String> catalyst = new TwsSimulator<>(query(true));
                    System.out.println("catalyst: " + sorted(catalyst.runBatch(clicks()).outputs()));
                    System.out.println("state encoder: " + catalyst.encoderPaths().get("state id"));
                }
                case "live" -> {
                    Scenario<Click> scenario = Scenario.<Click>builder().batch(clicks()).build();
                    System.out.println("live: " + sorted(LiveRunner.of(query(false)).run(scenario).outputs()));
                }
                case "levels" -> {
                    SparkLogs.simulator();
                    String afterSimulator = level("org.apache.spark");
                    SparkLogs.live();
                    String afterLive = level("org.apache.spark");
                    SparkLogs.simulator();
                    System.out.println("levels: " + afterSimulator + " " + afterLive + " " + level("org.apache.spark")
                            + "; netty " + level("io.netty") + "; root " + LogManager.getRootLogger().getLevel());
                }
                case "user" -> LogManager.getLogger("user.app").info("the application's own INFO line");
                default -> throw new IllegalArgumentException("unknown mode " + mode);
            }
        }
        System.exit(0);
    }

    private static String level(String logger) {
        return LogManager.getLogger(logger).getLevel().toString();
    }
}
