package dev.twstester.property;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;
import org.junit.jupiter.api.Test;

import dev.twstester.TwsQuery;
import dev.twstester.sim.StateDump;
import dev.twstester.sim.TwsSimulator;

import scala.jdk.javaapi.CollectionConverters;

/**
 * The recorder reads only the keys a batch's handlers ran for, and every key when state changed
 * without a handler: a write through {@code state()}, or a value with a TTL.
 */
class CoverageStateTest {
    private static final Instant T0 = Instant.parse("2024-01-01T00:00:00Z");

    /** Keeps the last kind per key, with a TTL of 10 s when built with {@code ttl}. */
    public static class LastKind extends StatefulProcessor<String, ProbeEvent, String> {
        private final boolean ttl;
        private transient ValueState<String> last;

        LastKind(boolean ttl) {
            this.ttl = ttl;
        }

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            last = getHandle().getValueState("last", Encoders.STRING(),
                    ttl ? new TTLConfig(Duration.ofSeconds(10)) : TTLConfig.NONE());
        }

        @Override
        public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<ProbeEvent> rows,
                TimerValues timers) {
            while (rows.hasNext()) {
                last.update(rows.next().getKind());
            }
            return CollectionConverters.asScala(List.<String>of().iterator());
        }
    }

    private static TwsSimulator<String, ProbeEvent, String> simulator(boolean ttl, CoverageRecorder<String, ProbeEvent, String>[] out) {
        TwsQuery<String, ProbeEvent, String> query = TwsQuery.builder(() -> new LastKind(ttl))
                .keyBy(ProbeEvent::getKey, Encoders.STRING()).input(Encoders.bean(ProbeEvent.class))
                .output(Encoders.STRING()).timeMode(TimeMode.ProcessingTime()).outputMode(OutputMode.Update()).build();
        out[0] = CoverageRecorder.of(query);
        return TwsSimulator.builder(query).listener(out[0]).build();
    }

    private static ProbeEvent row(String key, String kind) {
        return new ProbeEvent(key, T0.toEpochMilli(), kind);
    }

    @Test
    @SuppressWarnings("unchecked")
    void a_key_cleared_through_state_is_seen_at_the_next_batch_though_no_handler_ran_for_it() {
        CoverageRecorder<String, ProbeEvent, String>[] coverage = new CoverageRecorder[1];
        TwsSimulator<String, ProbeEvent, String> sim = simulator(false, coverage);
        sim.runBatchAt(T0, List.of(row("x", "add")));
        sim.state().clear("last", "x");
        assertThat(coverage[0].features()).doesNotContain("state cleared: last");

        sim.runBatchAt(T0.plusSeconds(1), List.of(row("y", "add")));

        assertThat(coverage[0].features()).contains("state created: last", "state cleared: last");
    }

    @Test
    @SuppressWarnings("unchecked")
    void a_batch_compares_only_its_keys_so_an_untouched_key_is_neither_updated_nor_cleared() {
        CoverageRecorder<String, ProbeEvent, String>[] coverage = new CoverageRecorder[1];
        TwsSimulator<String, ProbeEvent, String> sim = simulator(false, coverage);
        sim.runBatchAt(T0, List.of(row("x", "add"), row("y", "add")));
        sim.runBatchAt(T0.plusSeconds(1), List.of(row("y", "add")));
        assertThat(coverage[0].features()).doesNotContain("state updated: last", "state cleared: last");

        sim.runBatchAt(T0.plusSeconds(2), List.of(row("x", "checkout")));

        assertThat(coverage[0].features()).contains("state updated: last").doesNotContain("state cleared: last");
    }

    @Test
    @SuppressWarnings("unchecked")
    void a_value_whose_ttl_ran_out_is_cleared_without_a_handler_call_and_recorded() {
        CoverageRecorder<String, ProbeEvent, String>[] coverage = new CoverageRecorder[1];
        TwsSimulator<String, ProbeEvent, String> sim = simulator(true, coverage);
        sim.runBatchAt(T0, List.of(row("x", "add")));
        assertThat(sim.state().ttlOf("last")).contains(Duration.ofSeconds(10));

        sim.runBatchAt(T0.plusSeconds(30), List.of(row("y", "add")));

        assertThat(coverage[0].features()).contains("TTL expired", "state cleared: last");
        assertThat(sim.state().keys()).containsExactly("y");
    }

    @Test
    @SuppressWarnings("unchecked")
    void dump_of_some_keys_decodes_those_keys_and_leaves_out_a_key_without_state() {
        CoverageRecorder<String, ProbeEvent, String>[] coverage = new CoverageRecorder[1];
        TwsSimulator<String, ProbeEvent, String> sim = simulator(false, coverage);
        sim.runBatchAt(T0, List.of(row("x", "add"), row("y", "checkout")));

        StateDump<String> some = sim.state().dump(List.of("y", "nobody"));

        assertThat(some.keys()).extracting(StateDump.KeyState::key).containsExactly("y");
        assertThat(some.of("y").map(k -> k.variables().get("last").value())).isEqualTo(Optional.of("checkout"));
        assertThat(sim.state().ttlOf("last")).isEmpty();
        assertThat(sim.state().dump().keys()).hasSize(2);
    }
}
