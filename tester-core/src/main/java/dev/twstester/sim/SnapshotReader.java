package dev.twstester.sim;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

import dev.twstester.StateEncoding;

/**
 * Reads a file {@link SnapshotWriter} wrote (docs/snapshot-format.md). No class is named or loaded
 * from the file: schemas are parsed as Spark's StructType JSON and values stay Spark's bytes, each
 * variable's encoder a row encoder of its schema until {@link TwsSimulator#restore} gives the
 * query's. Every problem is a {@link SnapshotFormatException}; lengths and counts are checked
 * against what is left of the file before anything is allocated.
 */
final class SnapshotReader {
    private static final int HEADER = SnapshotWriter.MAGIC.length + 2;

    private final SnapshotInput in;
    private final List<StructType> schemas = new ArrayList<>();
    private final List<Encoder<?>> encoders = new ArrayList<>();
    /** The schema index of the grouping key of the operator being read. */
    private int keySchema;

    private SnapshotReader(SnapshotInput in) {
        this.in = in;
    }

    static StateSnapshot read(Path file) throws IOException {
        long size = Files.size(file);
        if (size > Integer.MAX_VALUE - 16) {
            throw new SnapshotFormatException(file, -1, "the file has " + size + " bytes, more than a snapshot can");
        }
        return read(file, Files.readAllBytes(file));
    }

    static StateSnapshot read(Path file, byte[] data) throws SnapshotFormatException {
        checkHeader(file, data);
        int end = data.length - 4;
        CRC32 crc = new CRC32();
        crc.update(data, 0, end);
        int stored = ByteBuffer.wrap(data, end, 4).getInt();
        if (stored != (int) crc.getValue()) {
            throw new SnapshotFormatException(file, end, "the CRC-32 of the file's content is "
                    + Integer.toHexString((int) crc.getValue()) + " but the file ends with " + Integer.toHexString(stored)
                    + ": the file is corrupted or was cut short");
        }
        return new SnapshotReader(new SnapshotInput(file, data, HEADER, end)).snapshot();
    }

    /** The magic and the format version: an older twstester's file, a newer one's, or not a snapshot. */
    private static void checkHeader(Path file, byte[] data) throws SnapshotFormatException {
        if (data.length >= 2 && (data[0] & 0xff) == 0xAC && (data[1] & 0xff) == 0xED) {
            throw new SnapshotFormatException(file, -1, "it was written by an older twstester, which saved snapshots "
                    + "with Java serialization; it is not read, since deserializing a file can run code. Regenerate "
                    + "it: run what produced it again with this twstester and save sim.snapshot() anew");
        }
        byte[] magic = SnapshotWriter.MAGIC;
        if (data.length < magic.length || !Arrays.equals(data, 0, magic.length, magic, 0, magic.length)) {
            throw new SnapshotFormatException(file, 0, "it is not a twstester snapshot: it does not start with the "
                    + "bytes 89 54 57 53 53 4E 41 50 (\\x89TWSSNAP)");
        }
        if (data.length < HEADER + 4) {
            throw new SnapshotFormatException(file, data.length, "the file ends early (truncated?): "
                    + (HEADER + 4) + " bytes are the least a snapshot has, it has " + data.length);
        }
        int version = ((data[magic.length] & 0xff) << 8) | (data[magic.length + 1] & 0xff);
        if (version > SnapshotWriter.VERSION) {
            throw new SnapshotFormatException(file, magic.length, "it was written by a newer twstester, in snapshot "
                    + "format version " + version + "; this twstester reads format version " + SnapshotWriter.VERSION
                    + ": use the twstester that wrote it or a newer one");
        }
        if (version < 1) {
            throw new SnapshotFormatException(file, magic.length, "the format version is 0; versions start at 1");
        }
    }

    private StateSnapshot snapshot() throws SnapshotFormatException {
        Fidelity fidelity = Fidelity.values()[in.choice("the fidelity", "FULL", "FAST")];
        in.choice("the value format", SnapshotWriter.VALUE_FORMATS);
        long processingTimeMs = in.i64("the processing time");
        long lastBatchWatermarkMs = in.i64("the last batch's watermark");
        long watermarkMs = in.i64("the watermark");
        int at = in.position();
        long nextBatchId = in.i64("the next batch id");
        if (nextBatchId < 0) {
            throw in.errorAt(at, "the next batch id is " + nextBatchId + ", expected 0 or more");
        }
        int count = in.count("schemas", 4);
        for (int i = 0; i < count; i++) {
            schema(i);
        }
        int operators = in.count("operators", 17);
        if (operators == 0) {
            throw in.error("the snapshot has no operator; a query has at least one");
        }
        List<StateSnapshot.OperatorData> ops = new ArrayList<>(operators);
        for (int i = 0; i < operators; i++) {
            ops.add(operator());
        }
        if (in.remaining() != 0) {
            throw in.error(in.remaining() + " byte(s) follow the last operator; expected the CRC-32 only");
        }
        return new StateSnapshot(ops, processingTimeMs, watermarkMs, lastBatchWatermarkMs, nextBatchId, fidelity, true);
    }

    private void schema(int index) throws SnapshotFormatException {
        int at = in.position();
        String json = in.string("schema #" + index);
        try {
            if (!(DataType.fromJson(json) instanceof StructType struct)) {
                throw in.errorAt(at, "schema #" + index + " is not a struct type: " + abbreviated(json));
            }
            schemas.add(struct);
            encoders.add(Encoders.row(struct));
        } catch (Exception | StackOverflowError e) { // Jackson's parse errors are checked, yet thrown from Scala
            throw in.errorAt(at, "schema #" + index + " is not a Spark StructType in JSON (" + e.getClass().getSimpleName()
                    + "): " + abbreviated(json));
        }
    }

    private static String abbreviated(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }

    private StateSnapshot.OperatorData operator() throws SnapshotFormatException {
        int keySchema = in.index("the grouping key's schema", schemas.size());
        Encoder<?> key = encoders.get(keySchema);
        this.keySchema = keySchema;
        StateSnapshot.Settings settings = null;
        if (in.choice("whether the operator's settings follow", "no", "yes") == 1) {
            String timeMode = in.string("the time mode");
            String outputMode = in.string("the output mode");
            int encoding = in.choice("the state encoding", SnapshotWriter.ENCODINGS);
            settings = new StateSnapshot.Settings(timeMode, outputMode,
                    encoding == 0 ? null : StateEncoding.values()[encoding - 1]);
        }
        Set<String> names = new HashSet<>();
        List<StateSnapshot.Variable> variables = variables("state variables", names);
        List<StateSnapshot.Variable> dropped = variables("dropped state variables", names);
        int keys = in.count("grouping keys with timers", 8);
        Map<Bytes, long[]> timers = new HashMap<>();
        Bytes previous = null;
        for (int i = 0; i < keys; i++) {
            previous = ascending(previous, row(keySchema, "a grouping key with timers"), "timers' grouping keys");
            int n = in.count("timers of a key", 8);
            long[] expiries = new long[n];
            for (int t = 0; t < n; t++) {
                expiries[t] = in.i64("a timer's expiry");
            }
            timers.put(previous, expiries);
        }
        return new StateSnapshot.OperatorData(key, variables, timers, settings, dropped);
    }

    private List<StateSnapshot.Variable> variables(String what, Set<String> names) throws SnapshotFormatException {
        int n = in.count(what, 21);
        List<StateSnapshot.Variable> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int at = in.position();
            String name = in.string("a state variable's name");
            if (!names.add(name)) {
                throw in.errorAt(at, "state variable '" + name + "' appears twice in one operator");
            }
            out.add(variable(name));
        }
        return out;
    }

    private StateSnapshot.Variable variable(String name) throws SnapshotFormatException {
        int kind = in.choice("the kind of state variable '" + name + "'", SnapshotWriter.KINDS);
        int at = in.position();
        long ttlMs = in.i64("the TTL of '" + name + "'");
        if (ttlMs < 0) {
            throw in.errorAt(at, "the TTL of '" + name + "' is " + ttlMs + " ms, expected 0 (none) or more");
        }
        int valueSchema = in.index("the value schema of '" + name + "'", schemas.size());
        int mapKeySchema = kind == 2 ? in.index("the map key schema of '" + name + "'", schemas.size()) : -1;
        Encoder<?>[] enc = kind == 2 ? new Encoder<?>[] {encoders.get(mapKeySchema), encoders.get(valueSchema)}
                : new Encoder<?>[] {encoders.get(valueSchema)};
        int keys = in.count("grouping keys of '" + name + "'", 8);
        Map<Bytes, Object> data = new HashMap<>();
        Bytes previous = null;
        for (int i = 0; i < keys; i++) {
            previous = ascending(previous, row(keySchema, "a grouping key of '" + name + "'"), "grouping keys of '" + name + "'");
            data.put(previous, switch (kind) {
                case 0 -> ValueVariable.keyData(value(valueSchema, name), in.i64("an expiry"));
                case 1 -> ListVariable.keyData(list(valueSchema, name));
                default -> map(mapKeySchema, valueSchema, name);
            });
        }
        return new StateSnapshot.Variable(name, SnapshotWriter.KINDS[kind], ttlMs, enc, data);
    }

    private List<Object[]> list(int schema, String name) throws SnapshotFormatException {
        int n = in.count("list elements", 16);
        List<Object[]> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(new Object[] {value(schema, name), in.i64("an expiry")});
        }
        return out;
    }

    private Object map(int keySchema, int valueSchema, String name) throws SnapshotFormatException {
        int n = in.count("map entries", 28);
        List<Object[]> entries = new ArrayList<>(n);
        Bytes previous = null;
        for (int i = 0; i < n; i++) {
            previous = ascending(previous, in.bytes("a map entry's order"), "map entries of '" + name + "'");
            entries.add(new Object[] {previous, mapKey(keySchema, name), value(valueSchema, name), in.i64("an expiry")});
        }
        int s = in.count("left-over TTL index entries", 12);
        List<Object[]> stale = new ArrayList<>(s);
        for (int i = 0; i < s; i++) {
            stale.add(new Object[] {new Bytes(in.bytes("a TTL index entry's order")), in.i64("an expiry")});
        }
        return MapVariable.keyData(entries, stale);
    }

    /**
     * One value's bytes, in its variable's schema; or, for a value that an earlier version wrote with
     * the Avro encoding and no later version rewrote, its bytes in the schema it was written with,
     * kept with a row encoder of that schema ({@link WrittenValue}) for the restoring query to resolve.
     */
    private Object value(int schema, String name) throws SnapshotFormatException {
        int written = in.index("a value's schema", schemas.size());
        byte[] bytes = row(written, "a value of '" + name + "'");
        return written == schema ? bytes : WrittenValue.keep(bytes, encoders.get(written), encoders.get(schema));
    }

    /** One map key's bytes: always in its variable's map key schema. */
    private byte[] mapKey(int schema, String name) throws SnapshotFormatException {
        int at = in.position();
        int written = in.index("a map key's schema", schemas.size());
        if (written != schema) {
            throw in.errorAt(at, "a map key of '" + name + "' was written with schema #" + written + ", its variable has #"
                    + schema + "; map keys are always in their variable's key schema");
        }
        return row(schema, "a map key of '" + name + "'");
    }

    /** UnsafeRow bytes of schema {@code schema}, whose fixed part and top-level variable-length fields are checked. */
    private byte[] row(int schema, String what) throws SnapshotFormatException {
        int at = in.position() + 4;
        byte[] bytes = in.bytes(what);
        String problem = UnsafeRowShape.problem(bytes, schemas.get(schema));
        if (problem != null) {
            throw in.errorAt(at, what + " is not an UnsafeRow of " + schemas.get(schema).simpleString() + ": " + problem);
        }
        return bytes;
    }

    private Bytes ascending(Bytes previous, byte[] next, String what) throws SnapshotFormatException {
        Bytes key = new Bytes(next);
        if (previous != null && previous.compareTo(key) >= 0) {
            throw in.error(what + " must be in strictly ascending byte order, as twstester writes them");
        }
        return key;
    }
}
