package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.Test;

import dev.twstester.TwsQuery;
import dev.twstester.internal.RowCodec;

/**
 * Orders Spark derives from its encodings (docs/semantics.md 1.3, 5.3, 5.6, 7.3): input keys in Spark SQL
 * order, timer ties and MapState iteration in the RocksDB byte order of UnsafeRow encodings.
 */
class SparkOrderTest {

    private static TwsSimulator<Long, String, String> longKeys() {
        return new TwsSimulator<>(TwsQuery.builder(LongKeyProcessor::new)
                .keyBy(s -> Long.parseLong(s.substring(0, s.indexOf(','))), Encoders.LONG())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .build());
    }

    @Test
    void spec_15_2_long_keys_input_in_signed_order_timer_ties_in_little_endian_byte_order() {
        TwsSimulator<Long, String, String> sim = longKeys();
        List<String> out = sim.runBatchAt(Instant.ofEpochMilli(6000), List.of("6,1", "4,1", "65536,1", "0,1",
                String.valueOf(Long.MIN_VALUE) + ",1")).outputs();
        assertThat(out).containsExactly(
                "in:" + Long.MIN_VALUE + " keys=[1]", "in:0 keys=[1]", "in:4 keys=[1]", "in:6 keys=[1]", "in:65536 keys=[1]",
                "timer:0", "timer:" + Long.MIN_VALUE, "timer:65536", "timer:4", "timer:6");
    }

    @Test
    void spec_15_1_int_map_keys_iterate_in_unsigned_little_endian_byte_order() {
        TwsSimulator<Long, String, String> sim = longKeys();
        List<String> out = sim.runBatch(List.of("1,5", "1,-1", "1,0", "1,-1000", "1,1")).outputs();
        assertThat(out.get(0)).isEqualTo("in:1 keys=[0, 1, 5, -1000, -1]");
        assertThat(sim.state().<Integer, String>map("ints", 1L).keySet()).containsExactly(0, 1, 5, -1000, -1);
    }

    @Test
    void spec_15_1_string_map_keys_order_by_nested_row_size_then_length_then_bytes() {
        RowCodec<String> codec = RowCodec.of(Encoders.STRING());
        String long250 = "z".repeat(250);
        List<String> keys = new ArrayList<>(List.of("bbb", "a", long250, "B", "aa", "", "c", "b"));
        keys.sort((x, y) -> new Bytes(codec.nestedBytes(codec.encode(x))).compareTo(new Bytes(codec.nestedBytes(codec.encode(y)))));
        assertThat(keys).containsExactly("", long250, "B", "a", "b", "c", "aa", "bbb");
    }

    @Test
    void spec_1_2_string_keys_visit_in_utf8_byte_order_not_java_string_order() {
        RowCodec<String> codec = RowCodec.of(Encoders.STRING());
        String bmpMax = "\uFFFF";
        String emoji = "\uD83D\uDE00";
        assertThat(bmpMax.compareTo(emoji)).as("Java's UTF-16 order").isPositive();
        assertThat(codec.compareNatural(codec.encode(bmpMax), codec.encode(emoji))).as("Spark's UTF-8 order").isNegative();
        assertThat(codec.compareNatural(codec.encode("B"), codec.encode("a"))).isNegative();
    }

    @Test
    void encoded_state_is_a_copy_and_reads_return_new_objects() {
        RowCodec<Event> codec = RowCodec.of(Encoders.bean(Event.class));
        Event original = new Event("a", 1000, "x");
        byte[] stored = codec.encode(original);
        original.setCmd("mutated");
        Event read = codec.decode(stored);
        assertThat(read).isEqualTo(new Event("a", 1000, "x")).isNotSameAs(codec.decode(stored));
    }
}
