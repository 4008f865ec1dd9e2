package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessorWithInitialState;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.FiredTimer;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.TwsSimulator;
import dev.twstester.RunComparison;
import dev.twstester.sim.Event;
import dev.twstester.sim.InitialStateProcessor;

import scala.jdk.javaapi.CollectionConverters;

/**
 * {@code Scenario.Builder#restart()} (a stop and a start) on live Spark 4.2.0: the query restarts
 * from its checkpoint (docs/semantics.md 4.2 and 12.1). Batch ids continue, state and timers are
 * kept, initial state is not applied again, the driver-side init pass runs again, and no batch runs
 * before the first input after the restart.
 */
@Tag("live")
class LiveRestartTest {

    private static Instant t(long ms) {
        return Instant.ofEpochMilli(ms);
    }

    /**
     * EventTime with initial state: a Long per key counted up by each input row ("in:key:count").
     * Command "timer:N" registers N; a whole-second timer of key "chain" registers
     * {@code expiry - 999} in its own callback, already due, so that one waits for the next batch
     * that runs for another reason (docs/semantics.md 5.4).
     */
    public static class CountingProcessor extends StatefulProcessorWithInitialState<String, Event, String, Long> {
        /** init() calls that got Spark's driver-side handle (the planning pass of each query run). */
        static final AtomicInteger DRIVER_INITS = new AtomicInteger();
        private transient ValueState<Long> count;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            if (getHandle().getClass().getSimpleName().startsWith("Driver")) {
                DRIVER_INITS.incrementAndGet();
                return;
            }
            count = getHandle().getValueState("count", Encoders.LONG(), TTLConfig.NONE());
        }

        @Override
        public void handleInitialState(String key, Long initial, TimerValues timerValues) {
            count.update(initial);
        }

        @Override
        public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<Event> rows,
                TimerValues timerValues) {
            List<String> out = new ArrayList<>();
            while (rows.hasNext()) {
                Event e = rows.next();
                if (e.getCmd().startsWith("timer:")) {
                    getHandle().registerTimer(Long.parseLong(e.getCmd().substring(6)));
                }
                Long c = count.get();
                count.update(c == null ? 1 : c + 1);
                out.add("in:" + key + ":" + count.get());
            }
            return CollectionConverters.asScala(out.iterator());
        }

        @Override
        public scala.collection.Iterator<String> handleExpiredTimer(String key, TimerValues timerValues,
                ExpiredTimerInfo info) {
            long expiry = info.getExpiryTimeInMs();
            if (key.equals("chain") && expiry % 1000 == 0) {
                getHandle().registerTimer(expiry - 999);
            }
            return CollectionConverters.asScala(List.of("timer:" + key + ":" + expiry).iterator());
        }
    }

    @Test
    void event_time_restart_keeps_state_and_fires_the_overdue_timer_after_the_next_input() {
        TwsQuery<String, Event, String> query = TwsQuery.builder(CountingProcessor::new)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.STRING())
                .timeMode(TimeMode.EventTime())
                .watermark("ts", Duration.ofSeconds(5))
                .initialState(List.of(Map.entry("a", 10L), Map.entry("b", 20L)), Encoders.LONG())
                .build();
        Scenario<Event> scenario = Scenario.<Event>builder()
                .batchAt(t(1000), List.of(new Event("a", 10000, "x"), new Event("chain", 20000, "timer:12000")))
                .restart()
                .tick(t(5000))
                .batchAt(t(6000), List.of(new Event("b", 16000, "x"), new Event("a", 17000, "x"),
                        new Event("a", 15000, "late")))
                .batchAt(t(7000), List.of(new Event("a", 30000, "x")))
                .build();
        CountingProcessor.DRIVER_INITS.set(0);

        RunResult<String, Event, String> live = LiveRunner.of(query).run(scenario);

        assertThat(live.batches()).hasSize(5);
        // before the restart: data batch 0 and the no-data batch 1 the watermark advance (15000) asks for
        BatchResult<String, Event, String> b0 = live.batches().get(0);
        assertThat(b0.outputs()).containsExactly("in:a:11", "in:chain:1");
        BatchResult<String, Event, String> b1 = live.batches().get(1);
        assertThat(b1.hadInput()).isFalse();
        assertThat(b1.evictionWatermark()).isEqualTo(t(15000));
        // chain@12000 fires and registers 11001, already due: it waits for a batch that runs anyway
        assertThat(b1.firedTimers()).containsExactly(new FiredTimer<>("chain", t(12000)));
        // after the restart nothing ran at the tick; batch 2 is the next data batch: ids continue,
        // the watermark is restored (late = eviction = 15000), the late row is dropped, initial
        // state is not applied again (a counts on from 11, b from its initial 20), and the overdue
        // timer fires after the batch's input
        BatchResult<String, Event, String> b2 = live.batches().get(2);
        assertThat(b2.batchId()).isEqualTo(2);
        assertThat(b2.hadInput()).isTrue();
        assertThat(b2.batchTimestamp()).isEqualTo(t(6000));
        assertThat(b2.lateWatermark()).isEqualTo(t(15000));
        assertThat(b2.evictionWatermark()).isEqualTo(t(15000));
        assertThat(b2.droppedLate()).containsExactly(new Event("a", 15000, "late"));
        assertThat(b2.outputs()).containsExactly("in:a:12", "in:b:21", "timer:chain:11001");
        // batch 3 advances the watermark to 25000; batch 4 is its no-data batch
        assertThat(live.batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L, 2L, 3L, 4L);
        assertThat(live.batches().get(3).outputs()).containsExactly("in:a:13");
        assertThat(live.batches().get(4).hadInput()).isFalse();
        assertThat(live.batches().get(4).evictionWatermark()).isEqualTo(t(25000));
        // two driver-side init passes when each query run plans its first batch
        assertThat(CountingProcessor.DRIVER_INITS.get()).isEqualTo(4);

        CountingProcessor.DRIVER_INITS.set(0);
        RunComparison.simulatorVsSpark().assertSame(new TwsSimulator<>(query).run(scenario), live);
        assertThat(CountingProcessor.DRIVER_INITS.get()).as("the simulator's driver passes").isEqualTo(4);
    }

    @Test
    void processing_time_ticks_after_a_restart_run_nothing_until_data_arrives() {
        TwsQuery<String, String, String> query = TwsQuery.builder(InitialStateProcessor::new)
                .keyBy(s -> s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .initialState(List.of(Map.entry("c", 30L), Map.entry("b", 20L), Map.entry("a", 10L), Map.entry("b", 21L)),
                        Encoders.LONG())
                .build();
        // the spec's E-init experiment: timers e@3000 and c@4000 are due long before the data at 12000
        Scenario<String> scenario = Scenario.<String>builder()
                .batchAt(t(2000), List.of("a,x", "d,x", "e,x"))
                .restart()
                .tick(t(10000))
                .tick(t(11000))
                .batchAt(t(12000), List.of("b,y"))
                .tick(t(13000))
                .build();

        RunResult<String, String, String> live = LiveRunner.of(query).run(scenario);
        RunComparison.simulatorVsSpark().assertSame(new TwsSimulator<>(query).run(scenario), live);

        assertThat(live.batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L, 2L);
        assertThat(live.batches()).extracting(BatchResult::batchTimestamp).containsExactly(t(2000), t(12000), t(13000));
        assertThat(live.batches()).extracting(BatchResult::hadInput).containsExactly(true, true, false);
        assertThat(live.batches().get(0).outputs()).containsExactly("in:a:10", "in:d:null", "in:e:null");
        // b keeps the last initial-state row (21), not re-applied; the overdue timers fire after the input
        assertThat(live.batches().get(1).outputs()).containsExactly("in:b:21", "timer:e:3000", "timer:c:4000");
        assertThat(live.batches().get(1).firedTimers())
                .containsExactly(new FiredTimer<>("e", t(3000)), new FiredTimer<>("c", t(4000)));
        assertThat(live.batches().get(2).outputs()).isEmpty();
    }
}
