package com.example.doors;

import static dev.twstester.junit.assertj.TwsAssertions.assertThat;

import java.time.Duration;
import java.time.Instant;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.Test;

import dev.twstester.FiredTimer;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.junit.Simulator;
import dev.twstester.junit.TestSimulator;
import dev.twstester.junit.TwsTest;

@TwsTest(strict = true)
class DoorWatchTest {
    static Instant at(int second) {
        return Instant.parse("2024-05-01T10:00:00Z").plusSeconds(second);
    }

    /** The query source: DoorWatch as the job runs it. */
    static TwsQuery<String, DoorEvent, String> query() {
        return TwsQuery.builder(DoorWatch::new)
                .keyBy(DoorEvent::getDoor, Encoders.STRING())
                .input(Encoders.bean(DoorEvent.class))
                .output(Encoders.STRING())
                .timeMode(TimeMode.EventTime())
                .outputMode(OutputMode.Update())
                .watermark("ts", Duration.ofSeconds(10))
                .build();
    }

    @Simulator TestSimulator<String, DoorEvent, String> sim;

    @Test
    void a_door_left_open_alerts_once_the_watermark_passes_one_minute() {
        RunResult<String, DoorEvent, String> opened = sim.runBatch(DoorEvent.opened("front", at(0)));
        assertThat(opened).hasBatchIds(0, 1).outputs().isEmpty();
        assertThat(sim).hasWatermark(at(-10));
        assertThat(sim).valueState("openedAt", "front").contains(at(0).toEpochMilli());
        assertThat(sim).timers("front").containsExactly(at(60));

        RunResult<String, DoorEvent, String> run = sim.advanceWatermarkTo(at(61));

        assertThat(run).outputs().containsExactly("front open since 2024-05-01T10:00:00Z");
        assertThat(run).firedTimers().containsExactly(new FiredTimer<>("front", at(60)));
        assertThat(sim).hasNoStateFor("front");
    }

    @Test
    void closing_in_time_cancels_the_alert_and_says_how_long_it_was_open() {
        sim.runBatch(DoorEvent.opened("front", at(0)), DoorEvent.opened("back", at(5)));
        RunResult<String, DoorEvent, String> closed = sim.runBatch(DoorEvent.closed("front", at(42)));

        assertThat(closed).outputs().containsExactly("front closed after 42 s");
        assertThat(sim).timers("front").isEmpty();
        assertThat(sim).hasNoStateFor("front");
        assertThat(sim).timers("back").containsExactly(at(65));

        RunResult<String, DoorEvent, String> later = sim.advanceWatermarkTo(at(120));
        assertThat(later).firedTimers().containsExactly(new FiredTimer<>("back", at(65)));
        assertThat(later).outputs().containsExactly("back open since 2024-05-01T10:00:05Z");
        assertThat(sim).keysWithState().isEmpty();
    }

    @Test
    void a_close_behind_the_watermark_is_dropped_and_the_alert_still_fires() {
        sim.runBatch(DoorEvent.opened("front", at(0)));
        RunResult<String, DoorEvent, String> run = sim.runBatch(DoorEvent.opened("back", at(100)));
        assertThat(run).outputs().containsExactly("front open since 2024-05-01T10:00:00Z");
        assertThat(run).firedTimers().containsExactly(new FiredTimer<>("front", at(60)));

        RunResult<String, DoorEvent, String> late = sim.runBatch(DoorEvent.closed("front", at(30)));

        assertThat(late).droppedLate().hasSize(1).first().extracting(DoorEvent::getDoor).isEqualTo("front");
        assertThat(late).outputs().isEmpty();
        assertThat(sim).keysWithState().containsExactly("back");
        assertThat(sim).timers("back").containsExactly(at(160));
    }
}
