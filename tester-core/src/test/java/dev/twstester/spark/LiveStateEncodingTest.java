package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.twstester.RunComparison;
import dev.twstester.RunResult;
import dev.twstester.StateEncoding;
import dev.twstester.sim.KeyOrderProcessor;
import dev.twstester.sim.TwsSimulator;

/**
 * MapState iteration, {@code listTimers()} and timer firing orders under each state encoding
 * ({@link KeyOrderProcessor}), on live Spark and the simulator: RocksDB orders keys by their
 * encoded bytes, UnsafeRow's or Avro's (docs/semantics.md 15.7).
 */
@Tag("live")
class LiveStateEncodingTest {
    @ParameterizedTest
    @EnumSource(StateEncoding.class)
    void map_keys_and_timers_come_back_in_the_order_of_the_encoded_bytes(StateEncoding encoding) {
        var query = dev.twstester.sim.StateEncodingTestAccess.query(encoding);
        var scenario = dev.twstester.sim.StateEncodingTestAccess.SCENARIO;

        RunResult<String, String, String> live = LiveRunner.of(query).run(scenario);

        RunComparison.simulatorVsSpark().assertSame(new TwsSimulator<>(query).run(scenario), live);
        assertThat(live.batches().get(0).outputs().get(0)).isEqualTo(
                encoding == StateEncoding.AVRO ? "map: -1 1 2 256 65536" : "map: 65536 256 1 2 -1");
    }
}
