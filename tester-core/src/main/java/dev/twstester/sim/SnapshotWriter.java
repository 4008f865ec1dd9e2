package dev.twstester.sim;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.types.StructType;

import dev.twstester.StateEncoding;

/**
 * Writes a {@link StateSnapshot} in twstester's snapshot format (docs/snapshot-format.md): a magic,
 * the format version, the query's position, a table of Spark schemas (StructType JSON), every
 * operator's variables with each value as Spark's UnsafeRow bytes and a reference to the schema it
 * was written with, timers, and a CRC-32 of it all. Values a snapshot holds as objects (immutable
 * types at FULL, everything at FAST) are encoded through their variable's encoder here. The output
 * is deterministic: keys in byte order.
 */
final class SnapshotWriter {
    static final byte[] MAGIC = {(byte) 0x89, 'T', 'W', 'S', 'S', 'N', 'A', 'P'};
    static final int VERSION = 1;
    static final String[] KINDS = {"value", "list", "map"};
    static final String[] ENCODINGS = {"none", StateEncoding.UNSAFE_ROW.conf(), StateEncoding.AVRO.conf()};
    static final String[] VALUE_FORMATS = {"UnsafeRow"};

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final DataOutputStream out = new DataOutputStream(bytes);
    private final Map<String, Integer> schemas = new LinkedHashMap<>();
    private final Fidelity fidelity;
    /** Whether every value is bytes already: a snapshot {@link SnapshotReader} read. */
    private final boolean allBytes;

    private SnapshotWriter(Fidelity fidelity, boolean allBytes) {
        this.fidelity = fidelity;
        this.allBytes = allBytes;
    }

    /** Writes {@code snapshot} to {@code file} (through a temporary file in the same folder, then moved over it). */
    static void write(StateSnapshot snapshot, Path file) throws IOException {
        byte[] content = bytes(snapshot);
        Path dir = file.toAbsolutePath().getParent();
        Path tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
        try {
            Files.write(tmp, content);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** The file's bytes for {@code snapshot}. */
    static byte[] bytes(StateSnapshot snapshot) throws IOException {
        SnapshotWriter w = new SnapshotWriter(snapshot.fidelity, snapshot.loaded);
        ByteArrayOutputStream body = w.body(snapshot);
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        DataOutputStream head = new DataOutputStream(file);
        head.write(MAGIC);
        head.writeShort(VERSION);
        head.writeByte(snapshot.fidelity.ordinal());
        head.writeByte(0); // values: UnsafeRow bytes
        head.writeLong(snapshot.processingTimeMs);
        head.writeLong(snapshot.lastBatchWatermarkMs);
        head.writeLong(snapshot.watermarkMs);
        head.writeLong(snapshot.nextBatchId);
        head.writeInt(w.schemas.size());
        for (String json : w.schemas.keySet()) {
            writeBytes(head, json.getBytes(StandardCharsets.UTF_8));
        }
        body.writeTo(head);
        CRC32 crc = new CRC32();
        crc.update(file.toByteArray());
        head.writeInt((int) crc.getValue());
        return file.toByteArray();
    }

    private ByteArrayOutputStream body(StateSnapshot snapshot) throws IOException {
        out.writeInt(snapshot.operators.size());
        for (int i = 0; i < snapshot.operators.size(); i++) {
            operator(i, snapshot.operators.get(i));
        }
        return bytes;
    }

    private void operator(int index, StateSnapshot.OperatorData op) throws IOException {
        out.writeInt(schema(op.keyEncoder().schema()));
        StateSnapshot.Settings settings = op.settings();
        out.writeByte(settings == null ? 0 : 1);
        if (settings != null) {
            writeString(settings.timeMode());
            writeString(settings.outputMode());
            out.writeByte(settings.encoding() == null ? 0 : settings.encoding().ordinal() + 1);
        }
        variables(index, op.variables());
        variables(index, op.dropped());
        Map<Bytes, long[]> timers = new TreeMap<>(op.timers());
        out.writeInt(timers.size());
        for (Map.Entry<Bytes, long[]> e : timers.entrySet()) {
            writeBytes(out, e.getKey().array());
            out.writeInt(e.getValue().length);
            for (long t : e.getValue()) {
                out.writeLong(t);
            }
        }
    }

    private void variables(int op, List<StateSnapshot.Variable> variables) throws IOException {
        out.writeInt(variables.size());
        for (StateSnapshot.Variable v : variables) {
            try {
                variable(v);
            } catch (RuntimeException e) {
                throw new IOException("cannot save the snapshot: a value of state variable '" + v.name() + "' (operator "
                        + op + ") cannot be encoded by its encoder (" + e + ")" + (fidelity == Fidelity.FAST
                        ? "; at Fidelity.FAST values are kept as objects and encoded only when saved: take the "
                                + "snapshot at Fidelity.FULL, where Spark's encoder checks each value when it is stored"
                        : ""), e);
            }
        }
    }

    private void variable(StateSnapshot.Variable v) throws IOException {
        Encoder<?>[] encoders = v.encoders();
        int kind = List.of(KINDS).indexOf(v.kind());
        writeString(v.name());
        out.writeByte(kind);
        out.writeLong(v.ttlMs());
        int valueSchema = schema(encoders[encoders.length - 1].schema());
        out.writeInt(valueSchema);
        Integer mapKeySchema = kind == 2 ? schema(encoders[0].schema()) : null;
        if (mapKeySchema != null) {
            out.writeInt(mapKeySchema);
        }
        Map<Bytes, Object> data = new TreeMap<>(v.data());
        out.writeInt(data.size());
        for (Map.Entry<Bytes, Object> e : data.entrySet()) {
            writeBytes(out, e.getKey().array());
            switch (kind) {
                case 0 -> {
                    Object[] s = ValueVariable.stored(e.getValue());
                    value(valueSchema, s[0], encoders[0]);
                    out.writeLong((Long) s[1]);
                }
                case 1 -> list(valueSchema, encoders[0], ListVariable.stored(e.getValue()));
                default -> map(valueSchema, mapKeySchema, encoders, e.getValue());
            }
        }
    }

    private void list(int schema, Encoder<?> encoder, List<Object[]> elements) throws IOException {
        out.writeInt(elements.size());
        for (Object[] s : elements) {
            value(schema, s[0], encoder);
            out.writeLong((Long) s[1]);
        }
    }

    private void map(int valueSchema, int keySchema, Encoder<?>[] encoders, Object keyData) throws IOException {
        List<Object[]> entries = MapVariable.storedWithOrder(keyData);
        out.writeInt(entries.size());
        for (Object[] s : entries) {
            writeBytes(out, ((Bytes) s[0]).array());
            value(keySchema, s[1], encoders[0]);
            value(valueSchema, s[2], encoders[1]);
            out.writeLong((Long) s[3]);
        }
        List<Object[]> stale = new ArrayList<>(MapVariable.staleOf(keyData));
        stale.sort(Comparator.<Object[], Bytes>comparing(s -> (Bytes) s[0]).thenComparingLong(s -> (Long) s[1]));
        out.writeInt(stale.size());
        for (Object[] s : stale) {
            writeBytes(out, ((Bytes) s[0]).array());
            out.writeLong((Long) s[1]);
        }
    }

    /**
     * One value: the schema it was written with, then its UnsafeRow bytes. A value kept with the
     * encoder an earlier version wrote it with ({@link WrittenValue}) is saved in that encoder's schema.
     */
    private void value(int schema, Object stored, Encoder<?> encoder) throws IOException {
        if (stored instanceof WrittenValue written) {
            out.writeInt(schema(written.writer().schema()));
            writeBytes(out, toBytes(written.stored(), written.writer()));
            return;
        }
        out.writeInt(schema);
        writeBytes(out, toBytes(stored, encoder));
    }

    /** Spark's bytes of a stored form: bytes as they are (read from a file; FULL, a mutable type), else an object encoded here. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private byte[] toBytes(Object stored, Encoder<?> encoder) {
        if (allBytes) {
            return (byte[]) stored;
        }
        KeyCodec codec = KeyCodec.of(encoder);
        if (stored instanceof byte[] b && fidelity == Fidelity.FULL && !codec.immutable()) {
            return b;
        }
        return codec.encode(stored);
    }

    private int schema(StructType schema) {
        return schemas.computeIfAbsent(schema.json(), json -> schemas.size());
    }

    private void writeString(String s) throws IOException {
        writeBytes(out, s.getBytes(StandardCharsets.UTF_8));
    }

    private static void writeBytes(DataOutputStream to, byte[] b) throws IOException {
        to.writeInt(b.length);
        to.write(b);
    }
}
