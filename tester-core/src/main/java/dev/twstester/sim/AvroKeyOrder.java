package dev.twstester.sim;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.avro.AvroSerializer;
import org.apache.spark.sql.avro.SchemaConverters$;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.Platform;

import dev.twstester.internal.RowCodec;

/**
 * Where RocksDB puts keys when the state store encodes rows with Avro
 * ({@code spark.sql.streaming.stateStore.encodingFormat=avro}): after a scan prefix, a key's
 * remaining columns are Spark's Avro binary encoding ({@code AvroStateEncoder}, with
 * {@code SchemaConverters.toAvroTypeWithDefaults}), so MapState iterates its map keys, timers of
 * one expiry fire, and {@code listTimers()} lists a key's expiries in the unsigned order of those
 * bytes: zig-zag varints for numbers, not their numeric order.
 */
final class AvroKeyOrder {
    private AvroKeyOrder() {}

    /** Spark's serializer and Avro's writer for one encoder's rows nested as the one column of a row. */
    private record Writer(AvroSerializer serializer, GenericDatumWriter<Object> writer) {}

    /**
     * Shared by all threads: a concurrent map of writers that keep no state between calls (Spark's
     * serializer builds a new Avro record per row, Avro's {@code GenericDatumWriter} only reads its
     * schema; each call has its own output stream and encoder).
     */
    private static final Map<Encoder<?>, Writer> WRITERS = new ConcurrentHashMap<>();

    /**
     * The Avro bytes by which RocksDB orders a value of {@code encoder}'s type that is the remaining
     * key column of a prefix or range scan: a map key after its grouping key, a grouping key after a
     * timer's expiry. {@code encoded} is the value's UnsafeRow bytes.
     */
    static byte[] bytes(Encoder<?> encoder, byte[] encoded) {
        Writer w = WRITERS.computeIfAbsent(encoder, AvroKeyOrder::writer);
        byte[] nested = RowCodec.of(encoder).nestedBytes(encoded);
        UnsafeRow row = new UnsafeRow(1);
        row.pointTo(nested, Platform.BYTE_ARRAY_OFFSET, nested.length);
        ByteArrayOutputStream out = new ByteArrayOutputStream(nested.length);
        BinaryEncoder avro = EncoderFactory.get().directBinaryEncoder(out, null);
        try {
            w.writer().write(w.serializer().serialize(row), avro);
            avro.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    private static Writer writer(Encoder<?> encoder) {
        StructType remaining = new StructType().add("key", RowCodec.of(encoder).schema());
        Schema schema = SchemaConverters$.MODULE$.toAvroTypeWithDefaults(remaining);
        return new Writer(new AvroSerializer(remaining, schema, false), new GenericDatumWriter<>(schema));
    }

    /**
     * {@code listTimers()} order with Avro: a timer's remaining key column is its expiry, a nullable
     * Avro {@code long}: the union branch, then the zig-zag varint, compared as unsigned bytes.
     */
    static final Comparator<Long> LIST_ORDER = (a, b) -> {
        long x = (a << 1) ^ (a >> 63);
        long y = (b << 1) ^ (b >> 63);
        while (true) {
            int bx = (int) (x & 0x7f) | ((x >>> 7) != 0 ? 0x80 : 0);
            int by = (int) (y & 0x7f) | ((y >>> 7) != 0 ? 0x80 : 0);
            if (bx != by) {
                return Integer.compare(bx, by);
            }
            x >>>= 7;
            y >>>= 7;
            if ((bx & 0x80) == 0) {
                return 0; // both ended: equal bytes
            }
        }
    };
}
