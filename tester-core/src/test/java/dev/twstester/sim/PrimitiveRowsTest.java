package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Encoders;
import org.junit.jupiter.api.Test;

import dev.twstester.internal.RowCodec;

/** The hand-written encodings give exactly Spark's bytes, order and nested-row bytes. */
class PrimitiveRowsTest {

    private static <T> void assertSameAsSpark(Encoder<T> encoder, List<T> values) {
        PrimitiveRows<T> fast = PrimitiveRows.forEncoder(encoder);
        RowCodec<T> spark = RowCodec.of(encoder);
        assertThat(fast).isNotNull();
        for (T a : values) {
            byte[] bytes = spark.encode(a);
            assertThat(fast.encode(a)).as("bytes of %s", a).containsExactly(bytes);
            assertThat(fast.decode(bytes)).isEqualTo(a);
            assertThat(fast.nestedBytes(bytes)).as("nested bytes of %s", a).containsExactly(spark.nestedBytes(bytes));
            for (T b : values) {
                assertThat(Integer.signum(fast.compareNatural(bytes, spark.encode(b))))
                        .as("order of %s and %s", a, b)
                        .isEqualTo(Integer.signum(spark.compareNatural(bytes, spark.encode(b))));
            }
        }
    }

    @Test
    void strings() {
        List<String> values = new ArrayList<>(Arrays.asList("", "a", "B", "aa", "bbb", "\uFFFF", "\uD83D\uDE00", "é",
                "z".repeat(250), "exactly8", "exactly8+", null));
        assertSameAsSpark(Encoders.STRING(), values);
    }

    @Test
    void longs() {
        assertSameAsSpark(Encoders.LONG(), Arrays.asList(0L, 1L, -1L, 4L, 6L, 65536L, Long.MIN_VALUE, Long.MAX_VALUE, -1000L, null));
    }

    @Test
    void ints_shorts_bytes_booleans() {
        assertSameAsSpark(Encoders.INT(), Arrays.asList(0, 1, -1, 5, 256, 65536, -1000, Integer.MIN_VALUE, Integer.MAX_VALUE, null));
        assertSameAsSpark(Encoders.SHORT(), Arrays.asList((short) 0, (short) -1, (short) 300, Short.MIN_VALUE, Short.MAX_VALUE, null));
        assertSameAsSpark(Encoders.BYTE(), Arrays.asList((byte) 0, (byte) -1, (byte) 7, Byte.MIN_VALUE, Byte.MAX_VALUE, null));
        assertSameAsSpark(Encoders.BOOLEAN(), Arrays.asList(true, false, null));
    }

    @Test
    void other_encoders_are_not_hand_written() {
        assertThat(PrimitiveRows.forEncoder(Encoders.DOUBLE())).isNull();
        assertThat(PrimitiveRows.forEncoder(Encoders.bean(Event.class))).isNull();
    }
}
