package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ExpiredTimerInfo;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessorWithInitialState;
import org.apache.spark.sql.streaming.TimerValues;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.TwsSimulator;
import dev.twstester.RunComparison;
import dev.twstester.sim.Event;
import dev.twstester.sim.OutEvent;

import scala.jdk.javaapi.CollectionConverters;

/**
 * {@link TwsQuery#outputEventTimeColumn()} on live Spark 4.2.0: the {@code eventTimeColumnName}
 * overloads of {@code transformWithState} (docs/semantics.md 3.6). Every output row is checked against
 * the batch's late-event watermark (the previous batch's): at or below it fails the query with
 * {@code EMITTING_ROWS_OLDER_THAN_WATERMARK_NOT_ALLOWED}.
 */
@Tag("live")
class LiveOutputEventTimeTest {

    /**
     * Outputs each input row at its event time, or at N for command "emit:N"; "timer+5" registers
     * an event-time timer 5 s after the row, whose output is at its expiry. An initial-state value
     * registers a timer at that time.
     */
    public static class EmitProcessor extends StatefulProcessorWithInitialState<String, Event, OutEvent, Long> {
        @Override
        public void init(OutputMode outputMode, org.apache.spark.sql.streaming.TimeMode timeMode) {}

        @Override
        public void handleInitialState(String key, Long timerAt, TimerValues timerValues) {
            getHandle().registerTimer(timerAt);
        }

        @Override
        public scala.collection.Iterator<OutEvent> handleInputRows(String key, scala.collection.Iterator<Event> rows,
                TimerValues timerValues) {
            List<OutEvent> out = new ArrayList<>();
            while (rows.hasNext()) {
                Event e = rows.next();
                if (e.getCmd().equals("timer+5")) {
                    getHandle().registerTimer(e.getTs().getTime() + 5000);
                }
                long at = e.getCmd().startsWith("emit:") ? Long.parseLong(e.getCmd().substring(5)) : e.getTs().getTime();
                out.add(new OutEvent(key, at, e.getCmd()));
            }
            return CollectionConverters.asScala(out.iterator());
        }

        @Override
        public scala.collection.Iterator<OutEvent> handleExpiredTimer(String key, TimerValues timerValues,
                ExpiredTimerInfo info) {
            return CollectionConverters.asScala(List.of(new OutEvent(key, info.getExpiryTimeInMs(), "timer")).iterator());
        }
    }

    private static TwsQuery.Builder<String, Event, OutEvent> query() {
        return TwsQuery.<String, Event, OutEvent>builder(EmitProcessor::new)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.bean(OutEvent.class))
                .outputMode(OutputMode.Update())
                .watermark("ts", Duration.ofSeconds(5))
                .outputEventTimeColumn("outTs");
    }

    @Test
    void rows_after_the_late_watermark_pass_even_one_millisecond_after_it() {
        Scenario<Event> scenario = Scenario.<Event>builder()
                .batch(List.of(new Event("a", 10000, "timer+5"), new Event("b", 20000, "x")))
                .batch(List.of(new Event("c", 16000, "emit:15001")))
                .build();

        RunResult<String, Event, OutEvent> live = LiveRunner.of(query().build()).run(scenario);
        RunComparison.simulatorVsSpark().assertSame(new TwsSimulator<>(query().build()).run(scenario), live);

        assertThat(live.batches()).extracting(BatchResult::hadInput).containsExactly(true, false, true);
        assertThat(live.batches().get(0).outputs())
                .containsExactly(new OutEvent("a", 10000, "timer+5"), new OutEvent("b", 20000, "x"));
        // the no-data batch's late watermark is still 0, so the timer row at 15000 passes
        assertThat(live.batches().get(1).outputs()).containsExactly(new OutEvent("a", 15000, "timer"));
        // late watermark 15000: a row at 15001 passes, though the input row of the batch is at 16000
        assertThat(live.batches().get(2).lateWatermark().toEpochMilli()).isEqualTo(15000);
        assertThat(live.batches().get(2).outputs()).containsExactly(new OutEvent("c", 15001, "emit:15001"));
    }

    @Test
    void with_initial_state_a_row_at_the_late_watermark_fails_the_query() {
        TwsQuery<String, Event, OutEvent> query = query()
                .initialState(List.of(Map.entry("a", 12000L)), Encoders.LONG())
                .build();
        Scenario<Event> scenario = Scenario.<Event>builder()
                .batch(List.of(new Event("b", 20000, "x")))
                .batch(List.of(new Event("c", 16000, "emit:15000")))
                .build();

        LiveRunException e = catchThrowableOfType(LiveRunException.class, () -> LiveRunner.of(query).run(scenario));

        assertThat(e.errorClass()).contains("EMITTING_ROWS_OLDER_THAN_WATERMARK_NOT_ALLOWED");
        TwsSimulator<String, Event, OutEvent> sim = new TwsSimulator<>(query);
        org.apache.spark.SparkRuntimeException simError = catchThrowableOfType(org.apache.spark.SparkRuntimeException.class,
                () -> sim.run(scenario));
        assertThat(simError.getCondition()).isEqualTo(e.errorClass().orElseThrow());
        assertThat(simError.getMessageParameters()).containsEntry("emittedRowEventTime", "15000000")
                .containsEntry("currentWatermark", "15000");
        assertThat(sim.history().batches()).hasSameSizeAs(e.completed());
        for (int i = 0; i < e.completed().size(); i++) {
            assertThat(List.<Object>copyOf(sim.history().batches().get(i).outputs())).as("batch %d", i)
                    .isEqualTo(List.<Object>copyOf(e.completed().get(i).outputs()));
        }
        // the row's time in microseconds, the watermark in milliseconds
        assertThat(e.getCause().getMessage()).contains("eventTime=15000000", "current_watermark_value=15000");
        // batch 0 and its no-data batch committed; the initial-state timer a@12000 fired in batch 1
        assertThat(e.completed()).hasSize(2);
        assertThat(List.<Object>copyOf(e.completed().get(1).outputs())).containsExactly(new OutEvent("a", 12000, "timer"));
    }
}
