package dev.twstester.internal;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

/**
 * Internal, not API: may change in any release.
 *
 * <p>External {@link Row}s (what a DataFrame shows) converted to and from the bytes of an {@link UnsafeRow}
 * for a {@link StructType}, without Catalyst's analyzer, expressions or code generation. The result is what
 * Spark 4.2.0's lenient row encoder ({@code ExpressionEncoder.apply(schema, true)}, resolved and bound) and
 * {@code UnsafeProjection.create(schema)} produce, and the failures are Spark's:
 * <ul>
 *   <li>{@link #toExternal} returns {@link GenericRowWithSchema}s (also for nested structs),
 *   {@code java.sql.Date}, {@code java.sql.Timestamp}, {@code java.time.LocalDateTime} for
 *   {@code timestamp_ntz}, {@code java.math.BigDecimal}, {@code byte[]}, Scala
 *   {@code mutable.ArraySeq} for arrays and immutable Scala {@code Map}s for maps;</li>
 *   <li>{@link #fromExternal} accepts what Spark's {@code ValidateExternalType} accepts: {@code Timestamp}
 *   or {@code Instant}, {@code Date} or {@code LocalDate}, Java, Scala or Spark decimals (rounded half-up to
 *   the field's scale), Scala {@code Seq}s or Java arrays for arrays (a Java {@code List} or a Scala {@code Set}
 *   passes Spark's type check and then fails its conversion with a {@code ClassCastException}, here too), Scala
 *   {@code Map}s for maps (not Java ones), {@link Row}s for structs; and fails with Spark's exceptions ({@code EXPRESSION_ENCODING_FAILED} around
 *   {@code INVALID_EXTERNAL_TYPE}, {@code NUMERIC_VALUE_OUT_OF_RANGE}, {@code NULL_MAP_KEY}, a null in a
 *   non-nullable field, ...; {@code NOT_NULL_ASSERT_VIOLATION} unwrapped).</li>
 * </ul>
 * Types other than the atomic ones (boolean to double, string, binary, decimal, date, timestamp,
 * timestamp_ntz, the three interval types as {@code Duration}, {@code Period} and {@code CalendarInterval}),
 * arrays, maps and structs are not covered: check {@link #supports(StructType)} first
 * (the conversions throw {@link UnsupportedOperationException} naming the type) and use Catalyst's encoder.
 *
 * <p>A schema's plan is built once and shared (thread-safe): its {@link Layout} and, over it, the
 * {@link RowValues} that map the external values of each position to and from the layout's values.
 *
 * <p>Faults are checked in the order Spark's generated code evaluates them (fields in order, depth first; a map
 * entry's key, its null check, then its value), so a row holding several faults fails on the same one.
 *
 * <p>Known difference: a null {@code CalendarInterval} in a struct field keeps 16 bytes that Spark leaves as its
 * reused buffer held them (stale bytes of an earlier row); this class zeroes them.
 */
final class ExternalRows {
    private ExternalRows() {}

    /** Whether every field of {@code schema}, at any depth, has a type this class converts. */
    public static boolean supports(StructType schema) {
        Objects.requireNonNull(schema, "schema must not be null");
        return Layout.uncovered(schema) == null;
    }

    /**
     * The external row Spark's row encoder deserializes from {@code row}, a row of {@code schema}: a
     * {@link GenericRowWithSchema} holding the default external types.
     *
     * @throws UnsupportedOperationException if {@code schema} holds a type this class does not cover
     */
    public static Row toExternal(UnsafeRow row, StructType schema) {
        Objects.requireNonNull(row, "row must not be null");
        return new GenericRowWithSchema(plan(schema).readFields(row), schema);
    }

    /**
     * The bytes of the {@link UnsafeRow} Spark's lenient row encoder and {@code UnsafeProjection} make of
     * {@code row} for {@code schema}; fails where and as that encoder fails.
     *
     * @throws UnsupportedOperationException if {@code schema} holds a type this class does not cover
     */
    public static byte[] fromExternal(Row row, StructType schema) {
        RowStructs plan = plan(schema);
        if (row == null) {
            throw CodecErrors.notNull("top level Product or row object");
        }
        try {
            return plan.layout.toBytes(plan, row);
        } catch (RuntimeException e) {
            throw CodecErrors.encodingFailed("the lenient row encoder's serializer of " + schema.sql()
                    + " (the external row converted natively by twstester)", e);
        }
    }

    // ---------------------------------------------------------------- plans

    /** Every schema's plan (immutable), shared by all threads: a concurrent map. */
    private static final Map<StructType, RowStructs> PLANS = new ConcurrentHashMap<>();

    /**
     * The last schema's plan, found by identity: hashing a StructType walks all of it. A volatile
     * reference to an immutable pair, so a thread sees either its own or another thread's last plan,
     * each right for its schema.
     */
    private static volatile Last last;

    private record Last(StructType schema, RowStructs plan) {}

    private static RowStructs plan(StructType schema) {
        Objects.requireNonNull(schema, "schema must not be null");
        Last cached = last;
        if (cached != null && cached.schema == schema) {
            return cached.plan;
        }
        RowStructs plan = PLANS.get(schema);
        if (plan == null) {
            DataType bad = Layout.uncovered(schema);
            if (bad != null) {
                throw new UnsupportedOperationException("twstester converts external rows of atomic, interval, "
                        + "array, map and struct types natively, not " + bad.sql() + " (in " + schema.sql()
                        + "); convert it with Spark's encoder (ExpressionEncoder.apply(schema, true)) instead");
            }
            plan = new RowStructs((StructLayout) Layout.of(schema), RowSource.TOP, new int[] {0});
            PLANS.putIfAbsent(schema, plan);
        }
        last = new Last(schema, plan);
        return plan;
    }
}
