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

    /** A simulator of {@link LastKind} in ProcessingTime mode with its coverage recorder attached. */
    private record Recorded(TwsSimulator<String, ProbeEvent, String> sim, CoverageRecorder<String, ProbeEvent, String> coverage) {
        static Recorded of(boolean ttl) {
            TwsQuery<String, ProbeEvent, String> query = TwsQuery.builder(() -> new LastKind(ttl))
                    .keyBy(ProbeEvent::getKey, Encoders.STRING()).input(Encoders.bean(ProbeEvent.class))
                    .output(Encoders.STRING()).timeMode(TimeMode.ProcessingTime()).outputMode(OutputMode.Update()).build();
            CoverageRecorder<String, ProbeEvent, String> coverage = CoverageRecorder.of(query);
            return new Recorded(TwsSimulator.builder(query).listener(coverage).build(), coverage);
        }

        /** A batch at {@code T0 + seconds} of one row per {@code key:kind}. */
        Recorded batch(int seconds, String... rows) {
            List<ProbeEvent> events = new java.util.ArrayList<>();
            for (String r : rows) {
                events.add(new ProbeEvent(r.split(":")[0], T0.toEpochMilli(), r.split(":")[1]));
            }
            sim.runBatchAt(T0.plusSeconds(seconds), events);
            return this;
        }
    }

    @Test
    void a_key_cleared_through_state_is_seen_at_the_next_batch_though_no_handler_ran_for_it() {
        Recorded r = Recorded.of(false).batch(0, "x:add");
        r.sim().state().clear("last", "x");
        assertThat(r.coverage().features()).doesNotContain("state cleared: last");

        r.batch(1, "y:add");

        assertThat(r.coverage().features()).contains("state created: last", "state cleared: last");
    }

    @Test
    void a_batch_compares_only_its_keys_so_an_untouched_key_is_neither_updated_nor_cleared() {
        Recorded r = Recorded.of(false).batch(0, "x:add", "y:add").batch(1, "y:add");
        assertThat(r.coverage().features()).doesNotContain("state updated: last", "state cleared: last");

        r.batch(2, "x:checkout");

        assertThat(r.coverage().features()).contains("state updated: last").doesNotContain("state cleared: last");
    }

    @Test
    void a_value_whose_ttl_ran_out_is_cleared_without_a_handler_call_and_recorded() {
        Recorded r = Recorded.of(true).batch(0, "x:add");
        assertThat(r.sim().state().ttlOf("last")).contains(Duration.ofSeconds(10));

        r.batch(30, "y:add");

        assertThat(r.coverage().features()).contains("TTL expired", "state cleared: last");
        assertThat(r.sim().state().keys()).containsExactly("y");
    }

    @Test
    void dump_of_some_keys_decodes_those_keys_and_leaves_out_a_key_without_state() {
        TwsSimulator<String, ProbeEvent, String> sim = Recorded.of(false).batch(0, "x:add", "y:checkout").sim();

        StateDump<String> some = sim.state().dump(List.of("y", "nobody"));

        assertThat(some.keys()).extracting(StateDump.KeyState::key).containsExactly("y");
        assertThat(some.of("y").map(k -> k.variables().get("last").value())).isEqualTo(Optional.of("checkout"));
        assertThat(sim.state().ttlOf("last")).isEmpty();
        assertThat(sim.state().dump().keys()).hasSize(2);
    }
}
