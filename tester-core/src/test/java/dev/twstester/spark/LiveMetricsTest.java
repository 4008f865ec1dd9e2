package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.ListState;
import org.apache.spark.sql.streaming.MapState;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.RunComparison;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.TwsSimulator;
import dev.twstester.sim.Event;
import dev.twstester.sim.EventTimeProcessor;
import dev.twstester.sim.OutEvent;

import scala.jdk.javaapi.CollectionConverters;

/**
 * {@link BatchResult#metrics()} of live runs, batch by batch: the exact values Spark 4.2.0's query
 * progress reports for the transformWithState operator (one shuffle partition), with the rule
 * behind each value in the comments (docs/semantics.md, section 11).
 */
@Tag("live")
class LiveMetricsTest {

    private static Instant t(long ms) {
        return Instant.ofEpochMilli(ms);
    }

    /** The nine metrics in {@link BatchResult#METRIC_NAMES} order. */
    private static Map<String, Long> metrics(long registered, long deleted, long valueVars, long listVars, long mapVars,
            long ttlRemoved, long updated, long removed, long dropped) {
        long[] values = {registered, deleted, valueVars, listVars, mapVars, ttlRemoved, updated, removed, dropped};
        Map<String, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < values.length; i++) {
            m.put(NAMES.get(i), values[i]);
        }
        return m;
    }

    private static final List<String> NAMES = List.of("numRegisteredTimers", "numDeletedTimers", "numValueStateVars",
            "numListStateVars", "numMapStateVars", "numValuesRemovedDueToTTLExpiry", "numUpdatedStateRows",
            "numRemovedStateRows", "numRowsDroppedByWatermark");

    /** The nine metrics the expectations list, from a batch that reports all of {@link BatchResult#METRIC_NAMES}. */
    private static Map<String, Long> nine(BatchResult<?, ?, ?> batch) {
        Map<String, Long> m = new LinkedHashMap<>();
        NAMES.forEach(n -> m.put(n, batch.metrics().get(n)));
        return m;
    }

    /** The simulator run of the same scenario agrees with the live one in every aspect, metrics included. */
    private static <K, I, O> void simulatorAgrees(TwsQuery<K, I, O> query, Scenario<I> scenario, RunResult<K, I, O> live) {
        RunComparison.simulatorVsSpark().assertSame(new TwsSimulator<>(query).run(scenario), live);
    }

    /**
     * ProcessingTime; rows are "key,command". Value, list and map state without TTL and with a
     * 3000 ms TTL. A timer of key "self" deletes itself in its callback; other timers update "v".
     * "tmget:k" outputs the TTL map's value for k.
     */
    public static class MetricsProcessor extends StatefulProcessor<String, String, String> {
        private transient ValueState<Long> v;
        private transient ListState<String> l;
        private transient MapState<String, Long> m;
        private transient ValueState<String> tv;
        private transient ListState<String> tl;
        private transient MapState<String, String> tm;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            v = getHandle().getValueState("v", Encoders.LONG(), TTLConfig.NONE());
            l = getHandle().getListState("l", Encoders.STRING(), TTLConfig.NONE());
            m = getHandle().getMapState("m", Encoders.STRING(), Encoders.LONG(), TTLConfig.NONE());
            TTLConfig ttl = new TTLConfig(Duration.ofMillis(3000));
            tv = getHandle().getValueState("tv", Encoders.STRING(), ttl);
            tl = getHandle().getListState("tl", Encoders.STRING(), ttl);
            tm = getHandle().getMapState("tm", Encoders.STRING(), Encoders.STRING(), ttl);
        }

        @Override
        public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<String> rows,
                TimerValues timerValues) {
            List<String> out = new ArrayList<>();
            while (rows.hasNext()) {
                String cmd = rows.next();
                cmd = cmd.substring(cmd.indexOf(',') + 1);
                String op = cmd.contains(":") ? cmd.substring(0, cmd.indexOf(':')) : cmd;
                String arg = cmd.substring(cmd.indexOf(':') + 1);
                switch (op) {
                    case "v" -> v.update(Long.parseLong(arg));
                    case "vclear" -> v.clear();
                    case "la" -> l.appendValue(arg);
                    case "lput" -> l.put(arg.split(";"));
                    case "lclear" -> l.clear();
                    case "m" -> m.updateValue(arg.split("=")[0], Long.parseLong(arg.split("=")[1]));
                    case "mrm" -> m.removeKey(arg);
                    case "t" -> tv.update(arg);
                    case "tl" -> tl.appendValue(arg);
                    case "tm" -> tm.updateValue(arg.split("=")[0], arg.split("=")[1]);
                    case "tmrm" -> tm.removeKey(arg);
                    case "tmget" -> cmd += "=" + tm.getValue(arg);
                    case "reg" -> getHandle().registerTimer(Long.parseLong(arg));
                    case "del" -> getHandle().deleteTimer(Long.parseLong(arg));
                    default -> throw new IllegalArgumentException(cmd);
                }
                out.add("in:" + key + ":" + cmd);
            }
            return CollectionConverters.asScala(out.iterator());
        }

        @Override
        public scala.collection.Iterator<String> handleExpiredTimer(String key, TimerValues timerValues,
                ExpiredTimerInfo info) {
            long expiry = info.getExpiryTimeInMs();
            if (key.equals("self")) {
                getHandle().deleteTimer(expiry);
            } else {
                v.update(expiry);
            }
            return CollectionConverters.asScala(List.of("timer:" + key + ":" + expiry).iterator());
        }
    }

    @Test
    void state_timer_and_ttl_metrics_per_batch() {
        TwsQuery<String, String, String> query = TwsQuery.builder(MetricsProcessor::new)
                .keyBy(s -> s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .build();
        Scenario<String> scenario = Scenario.<String>builder()
                .batchAt(t(1000), List.of("a,v:1", "a,la:x", "a,la:y", "a,m:k1=1", "a,m:k2=2", "a,t:ttl", "a,t:ttl",
                        "a,tl:e1", "a,tm:q=1", "a,reg:2000", "a,reg:2000", "a,reg:5000", "b,del:9999", "b,vclear",
                        "self,reg:2000"))
                .tick(t(2000))
                .batchAt(t(3000), List.of("a,m:k3=3", "a,lput:p;q;r", "a,v:7", "a,mrm:k1", "b,la:u", "b,la:w",
                        "b,lclear", "b,reg:3000"))
                .tick(t(4000))
                .tick(t(5000))
                .build();

        RunResult<String, String, String> live = LiveRunner.of(query).run(scenario);
        simulatorAgrees(query, scenario, live);

        List<Map<String, Long>> observed = live.batches().stream().map(LiveMetricsTest::nine).toList();
        assertThat(observed).containsExactly(
                // registerTimer counts every call, the duplicate a@2000 too (4); deleteTimer counts a
                // timer that does not exist (1); a TTL value updated again with the same value in
                // the same batch writes nothing and counts once; TTL variables are counted under
                // num*StateWithTTLVars, not here; clear() of an absent value counts 1 removed row
                metrics(4, 1, 1, 1, 1, 0, 8, 1, 0),
                // a@2000 and self@2000 fire: one delete per fired timer, plus self's own delete of
                // the firing timer (3); a's callback updates v (1)
                metrics(0, 3, 1, 1, 1, 0, 1, 0, 0),
                // ListState.put resets the task's numUpdatedStateRows before counting its 3 values:
                // m (1) is lost, then put (3), v (1), b's two appends (2), timer b@3000's update (1);
                // removeKey (1) and b's list clear (2 entries) are removed rows
                metrics(1, 1, 1, 1, 1, 0, 7, 3, 0),
                // TTL cleanup at 4000 of tv, tl's one element and tm's one entry (written at 1000)
                metrics(0, 0, 1, 1, 1, 3, 0, 3, 0),
                // a@5000 fires and updates v
                metrics(0, 1, 1, 1, 1, 0, 1, 0, 0));
    }

    @Test
    void late_rows_and_event_time_timers() {
        TwsQuery<String, Event, OutEvent> query = TwsQuery.builder(EventTimeProcessor::new)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.bean(OutEvent.class))
                .timeMode(TimeMode.EventTime())
                .outputMode(OutputMode.Update())
                .watermark("ts", Duration.ofSeconds(5))
                .build();
        Scenario<Event> scenario = Scenario.<Event>builder()
                .batch(List.of(new Event("a", 10000, "timer+5"), new Event("b", 20000, "timer+5")))
                .batch(List.of(new Event("a", 15000, "x"), new Event("a", 14000, "x"), new Event("c", 16000, "x")))
                .build();

        RunResult<String, Event, OutEvent> live = LiveRunner.of(query).run(scenario);
        simulatorAgrees(query, scenario, live);

        assertThat(live.batches()).extracting(BatchResult::hadInput).containsExactly(true, false, true);
        assertThat(live.batches()).extracting(LiveMetricsTest::nine).containsExactly(
                metrics(2, 0, 0, 0, 0, 0, 0, 0, 0),
                // the no-data batch at watermark 15000 fires a@15000
                metrics(0, 1, 0, 0, 0, 0, 0, 0, 0),
                // rows at 15000 and 14000 are at or below the late watermark 15000
                metrics(0, 0, 0, 0, 0, 0, 0, 0, 2));
    }

    @Test
    void a_ttl_map_key_removed_and_written_again_is_evicted_at_its_old_expiry() {
        TwsQuery<String, String, String> query = TwsQuery.builder(MetricsProcessor::new)
                .keyBy(s -> s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .build();
        Scenario<String> scenario = Scenario.<String>builder()
                .batchAt(t(1000), List.of("a,tm:k=1"))
                .batchAt(t(2000), List.of("a,tmrm:k", "a,tm:k=2"))
                .tick(t(4000))
                .batchAt(t(4500), List.of("a,tmget:k"))
                .build();

        RunResult<String, String, String> live = LiveRunner.of(query).run(scenario);
        simulatorAgrees(query, scenario, live);

        assertThat(live.batches()).extracting(LiveMetricsTest::nine).containsExactly(
                metrics(0, 0, 1, 1, 1, 0, 1, 0, 0),
                // removeKey counts one removed row but leaves k's TTL-index entry (expiry 4000) behind
                metrics(0, 0, 1, 1, 1, 0, 1, 1, 0),
                // at 4000 that stale entry evicts k, though k=2 was written at 2000 to expire at 5000
                metrics(0, 0, 1, 1, 1, 1, 0, 1, 0),
                metrics(0, 0, 1, 1, 1, 0, 0, 0, 0));
        assertThat(live.batches().get(3).outputs()).containsExactly("in:a:tmget:k=null");
    }
}
