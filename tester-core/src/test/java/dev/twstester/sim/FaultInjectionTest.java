package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.TwsQuery;

/** {@link Fault}: a fault lives in the one simulator built with it, never in the others of the JVM. */
class FaultInjectionTest {

    @BeforeEach
    void clearLog() {
        Log.drain();
    }

    /** Complete output mode: no no-data batches, so a data batch's late and eviction watermarks differ. */
    private static TwsQuery<String, Event, OutEvent> query() {
        return TwsQuery.builder(EventTimeProcessor::new)
                .keyBy(Event::getKey, Encoders.STRING())
                .input(Encoders.bean(Event.class))
                .output(Encoders.bean(OutEvent.class))
                .timeMode(TimeMode.EventTime())
                .outputMode(OutputMode.Complete())
                .watermark("ts", Duration.ofSeconds(10))
                .build();
    }

    private static TwsSimulator<String, Event, OutEvent> faulty(TwsQuery<String, Event, OutEvent> query) {
        return Fault.inject(TwsSimulator.builder(query), Fault.LATE_FILTER_USES_CURRENT_WATERMARK).build();
    }

    @Test
    void a_faulty_and_a_correct_simulator_side_by_side_only_the_faulty_one_drops_the_row() {
        TwsQuery<String, Event, OutEvent> query = query();
        TwsSimulator<String, Event, OutEvent> correct = new TwsSimulator<>(query);
        TwsSimulator<String, Event, OutEvent> faulty = faulty(query);

        // batch 0 on both, interleaved: a@20s moves the watermark to 10s after the batch
        BatchResult<String, Event, OutEvent> correct0 = correct.runBatch(new Event("a", 20_000, "x")).lastBatch();
        BatchResult<String, Event, OutEvent> faulty0 = faulty.runBatch(new Event("a", 20_000, "x")).lastBatch();
        assertThat(correct0.droppedLate()).isEmpty();
        assertThat(faulty0.droppedLate()).isEmpty();

        // batch 1, the same row on both: b@5s is late only against the current watermark (10s), not
        // against the previous batch's (0), which is the one Spark filters with
        BatchResult<String, Event, OutEvent> correct1 = correct.runBatch(new Event("b", 5_000, "x")).lastBatch();
        BatchResult<String, Event, OutEvent> faulty1 = faulty.runBatch(new Event("b", 5_000, "x")).lastBatch();

        assertThat(correct1.batchId()).isEqualTo(1L);
        assertThat(correct1.lateWatermark()).isEqualTo(Instant.EPOCH);
        assertThat(correct1.droppedLate()).isEmpty();
        assertThat(correct1.outputs()).containsExactly(new OutEvent("b", 5_000, "in:x"));
        assertThat(correct1.metric("numRowsDroppedByWatermark")).isZero();

        assertThat(faulty1.batchId()).isEqualTo(1L);
        assertThat(faulty1.lateWatermark()).isEqualTo(Instant.EPOCH);
        assertThat(faulty1.droppedLate()).containsExactly(new Event("b", 5_000, "x"));
        assertThat(faulty1.outputs()).isEmpty();
        assertThat(faulty1.metric("numRowsDroppedByWatermark")).isEqualTo(1L);

        // the handlers saw b only in the correct simulator's batch 1
        assertThat(Log.drain()).filteredOn(line -> line.startsWith("input key=b"))
                .containsExactly("input key=b wm=10000 batch=1 rows=[b@5000:x]");
    }

    @Test
    void the_fault_survives_a_restart_and_a_simulator_built_after_it_is_correct() {
        TwsQuery<String, Event, OutEvent> query = query();
        TwsSimulator<String, Event, OutEvent> faulty = faulty(query);
        faulty.runBatch(new Event("a", 20_000, "x"));
        faulty.restart();
        TwsSimulator<String, Event, OutEvent> later = new TwsSimulator<>(query);
        later.runBatch(new Event("a", 20_000, "x"));

        assertThat(faulty.runBatch(new Event("b", 5_000, "x")).droppedLate()).containsExactly(new Event("b", 5_000, "x"));
        assertThat(later.runBatch(new Event("b", 5_000, "x")).droppedLate()).isEmpty();
    }

    @Test
    void injecting_no_fault_builds_a_correct_simulator() {
        TwsSimulator<String, Event, OutEvent> none = Fault.inject(TwsSimulator.builder(query())).build();
        none.runBatch(new Event("a", 20_000, "x"));

        assertThat(none.runBatch(new Event("b", 5_000, "x")).droppedLate()).isEmpty();
    }

    @Test
    void inject_rejects_null() {
        assertThatThrownBy(() -> Fault.inject(null, Fault.LATE_FILTER_USES_CURRENT_WATERMARK))
                .isInstanceOf(NullPointerException.class).hasMessage("builder must not be null");
        assertThatThrownBy(() -> Fault.inject(TwsSimulator.builder(query()), (Fault) null))
                .isInstanceOf(NullPointerException.class).hasMessage("faults must not contain null");
    }
}
