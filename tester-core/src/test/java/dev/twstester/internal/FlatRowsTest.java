package dev.twstester.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Encoders;
import org.junit.jupiter.api.Test;

/**
 * The hand-written fast path of flat strings and boxed integers (formerly {@code PrimitiveRows}) gives
 * exactly Spark's bytes, decoded values, order, partitions and nested-row bytes.
 */
class FlatRowsTest {

    private static <T> void assertSameAsSpark(Encoder<T> encoder, List<T> values) {
        RowCodec<T> fast = RowCodec.of(encoder);
        CatalystCodec<T> spark = new CatalystCodec<>(encoder, "test");
        assertThat(fast.isNative()).isTrue();
        assertThat(((NativeCodec<T>) fast).flat()).isNotNull();
        for (T a : values) {
            byte[] bytes = spark.encode(a);
            assertThat(fast.encode(a)).as("bytes of %s", a).containsExactly(bytes);
            assertThat(fast.decode(bytes)).isEqualTo(a);
            assertThat(fast.nestedBytes(bytes)).as("nested bytes of %s", a).containsExactly(spark.nestedBytes(bytes));
            for (int n : new int[] {2, 3, 5, 200}) {
                assertThat(fast.partition(bytes, n)).as("partition of %s among %s", a, n).isEqualTo(spark.partition(bytes, n));
            }
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

    /** {@code EncoderShapes.immutableLeafClass} names exactly the encoders that take the fast path. */
    @Test
    void the_immutable_leaves_are_the_fast_path_encoders() {
        List<Encoder<?>> fast = List.of(Encoders.STRING(), Encoders.LONG(), Encoders.INT(), Encoders.SHORT(),
                Encoders.BYTE(), Encoders.BOOLEAN());
        List<Class<?>> classes = List.of(String.class, Long.class, Integer.class, Short.class, Byte.class, Boolean.class);
        for (int i = 0; i < fast.size(); i++) {
            assertThat(EncoderShapes.immutableLeafClass(fast.get(i))).isEqualTo(classes.get(i));
            assertThat(((NativeCodec<?>) RowCodec.of(fast.get(i))).flat()).isNotNull();
        }
        for (Encoder<?> other : List.of(Encoders.DOUBLE(), Encoders.FLOAT(), Encoders.BINARY(), Encoders.LOCALDATETIME(),
                Encoders.scalaInt(), Encoders.scalaLong(), Encoders.scalaBoolean(), Encoders.TIMESTAMP(),
                Encoders.DECIMAL(), Encoders.tuple(Encoders.STRING(), Encoders.LONG()))) {
            assertThat(EncoderShapes.immutableLeafClass(other)).as("%s", other).isNull();
            assertThat(((NativeCodec<?>) RowCodec.of(other)).flat()).as("%s", other).isNull();
        }
    }

    @Test
    void other_encoders_take_the_general_native_path() {
        assertThat(((NativeCodec<Double>) RowCodec.of(Encoders.DOUBLE())).flat()).isNull();
        assertThat(EncoderShapes.immutableLeafClass(Encoders.DOUBLE())).isNull();
        assertThat(EncoderShapes.immutableLeafClass(Encoders.STRING())).isEqualTo(String.class);
        assertThat(EncoderShapes.immutableLeafClass(Encoders.INT())).isEqualTo(Integer.class);
    }
}
