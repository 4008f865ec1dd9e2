package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/** The checks {@link SnapshotReader} makes of a key's or value's UnsafeRow bytes before keeping them. */
class UnsafeRowShapeTest {
    private static final StructType STRING = Encoders.STRING().schema();

    private static byte[] row(String s) {
        return KeyCodec.of(Encoders.STRING()).encode(s);
    }

    @Test
    void a_row_spark_wrote_passes() {
        assertThat(UnsafeRowShape.problem(row("ana"), STRING)).isNull();
        assertThat(UnsafeRowShape.problem(KeyCodec.of(Encoders.LONG()).encode(7L), Encoders.LONG().schema())).isNull();
    }

    @Test
    void a_short_or_unaligned_row_and_a_field_pointing_outside_it_are_named() {
        assertThat(UnsafeRowShape.problem(new byte[12], STRING)).isEqualTo("12 bytes, expected a multiple of 8 and at least 16");
        byte[] pointing = row("ana");
        ByteBuffer.wrap(pointing).order(ByteOrder.LITTLE_ENDIAN).putLong(8, (16L << 32) | 400);
        assertThat(UnsafeRowShape.problem(pointing, STRING)).isEqualTo("field value has offset 16 and size 400, outside the "
                + "row's variable-length part (bytes 16 to 24)");
    }

    @Test
    void a_snapshot_file_with_a_broken_key_row_is_refused_at_its_offset() throws Exception {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(SnapshotFileTest.experiment());
        SnapshotFileTest.experimentFirstPart(sim);
        byte[] data = SnapshotWriter.bytes(sim.snapshot());
        byte[] key = row("a");
        int at = indexOf(data, key);
        ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN).putLong(at + 8, (16L << 32) | 9);
        Path file = Path.of("broken.snapshot");

        assertThatThrownBy(() -> SnapshotReader.read(file, SnapshotFuzzTest.withCrc(data)))
                .isExactlyInstanceOf(SnapshotFormatException.class)
                .hasMessage("cannot load the snapshot broken.snapshot: at byte " + at + ": a grouping key of 'count' is not an "
                        + "UnsafeRow of struct<value:string>: field value has offset 16 and size 9, outside the row's "
                        + "variable-length part (bytes 16 to 24)");
    }

    private static int indexOf(byte[] data, byte[] part) {
        for (int i = 0; i + part.length <= data.length; i++) {
            if (Arrays.equals(data, i, i + part.length, part, 0, part.length)) {
                return i;
            }
        }
        throw new AssertionError("not found");
    }
}
