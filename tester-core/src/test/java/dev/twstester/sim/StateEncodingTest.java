package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Test;

import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.StateEncoding;
import dev.twstester.TwsQuery;

/**
 * The orders of MapState iteration and {@code listTimers()} under each state encoding
 * (docs/semantics.md 7.4 and 15.7): RocksDB orders keys by their encoded bytes, UnsafeRow's or
 * Avro's. The same scenario runs on live Spark in {@code LiveStateEncodingTest}.
 */
class StateEncodingTest {
    static TwsQuery<String, String, String> query(StateEncoding encoding) {
        return TwsQuery.builder(KeyOrderProcessor::new)
                .keyBy(s -> s, Encoders.STRING()).input(Encoders.STRING()).output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .trigger(Trigger.ProcessingTime(1000))
                .stateEncoding(encoding).build();
    }

    static final Scenario<String> SCENARIO = Scenario.<String>builder()
            .batchAt(Instant.ofEpochMilli(1000), List.of("a"))
            .tick(Instant.ofEpochMilli(20_000_000))
            .build();

    @Test
    void unsaferow_orders_by_the_little_endian_unsafe_row_bytes() {
        RunResult<String, String, String> run = new TwsSimulator<>(query(StateEncoding.UNSAFE_ROW)).run(SCENARIO);

        assertThat(run.batches().get(0).outputs()).containsExactly("map: 65536 256 1 2 -1",
                "timers: 10000129 10005000 10000300 11000000 10000070");
        assertThat(run.lastBatch().outputs()).containsExactly("fired a@10000070", "fired a@10000129",
                "fired a@10000300", "fired a@10005000", "fired a@11000000");
    }

    @Test
    void avro_orders_by_the_zig_zag_varints_of_the_avro_bytes_and_fires_by_expiry_as_before() {
        RunResult<String, String, String> run = new TwsSimulator<>(query(StateEncoding.AVRO)).run(SCENARIO);

        assertThat(run.batches().get(0).outputs()).containsExactly("map: -1 1 2 256 65536",
                "timers: 11000000 10000129 10000070 10005000 10000300");
        assertThat(run.lastBatch().outputs()).containsExactly("fired a@10000070", "fired a@10000129",
                "fired a@10000300", "fired a@10005000", "fired a@11000000");
    }

    @Test
    void the_encoding_is_unsaferow_by_default_and_withStateEncoding_keeps_the_rest_of_the_query() {
        TwsQuery<String, String, String> unsafe = query(StateEncoding.UNSAFE_ROW).withShufflePartitions(3);
        TwsQuery<String, String, String> avro = unsafe.withStateEncoding(StateEncoding.AVRO);

        assertThat(TwsQuery.builder(KeyOrderProcessor::new).keyBy(s -> s, Encoders.STRING())
                .input(Encoders.STRING()).output(Encoders.STRING()).build().stateEncoding())
                .isEqualTo(StateEncoding.UNSAFE_ROW);
        assertThat(avro.stateEncoding()).isEqualTo(StateEncoding.AVRO);
        assertThat(avro.stateEncoding().conf()).isEqualTo("avro");
        assertThat(avro.shufflePartitions()).isEqualTo(3);
        assertThat(avro.triggerIntervalMs()).isEqualTo(1000);
        assertThat(avro.withShufflePartitions(2).stateEncoding()).isEqualTo(StateEncoding.AVRO);
    }

    @Test
    void the_avro_order_survives_a_snapshot_and_a_restart_with_a_new_version() {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(query(StateEncoding.AVRO));
        sim.runBatchAt(Instant.ofEpochMilli(1000), List.of("a"));
        // the new version asks for unsaferow; the checkpoint's avro order stays
        TwsSimulator<String, String, String> next = sim.restartWith(query(StateEncoding.UNSAFE_ROW));

        assertThat(next.runBatchAt(Instant.ofEpochMilli(2000), List.of("a")).outputs()).containsExactly(
                "map: -1 1 2 256 65536", "timers: 11000000 10000129 10000070 10005000 10000300");
    }
}
