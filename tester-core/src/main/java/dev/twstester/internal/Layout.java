package dev.twstester.internal;

import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeArrayWriter;
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeRowWriter;
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeWriter;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The plan of Spark's row format for one value of a {@link DataType}: how the value is written into
 * an {@code UnsafeRow} (or an {@code UnsafeArrayData} element), read back, hashed and ordered. A row's
 * plan is a tree of these ({@link StructLayout} for the row, {@link ArrayLayout}, {@link MapLayout},
 * {@link DecimalLayout}, {@link AtomLayout}), built once; it is what {@code GenerateUnsafeProjection}
 * writes, {@code UnsafeRow}'s getters read, {@code Murmur3Hash} hashes and {@code InterpretedOrdering}
 * orders, without Catalyst's expressions or code generation. Immutable and thread-safe.
 *
 * <p>Both codecs go through it: {@link NativeCodec} maps an encoder's Java objects to and from the
 * layout's values ({@link JavaValues}), {@link ExternalRows} maps the values of external {@code Row}s
 * ({@link RowValues}).
 *
 * <p>The layout's values, Catalyst's internal forms: what {@link #write} takes and {@link #read} gives.
 * <ul>
 *   <li>boolean, tinyint ... double: their boxes; date and year-month intervals: {@code Integer} (days,
 *   months); timestamp, timestamp_ntz and day-time intervals: {@code Long} (microseconds);</li>
 *   <li>string: {@code UTF8String}; binary: {@code byte[]}; calendar interval: {@code CalendarInterval};
 *   decimal: {@code Decimal};</li>
 *   <li>struct: an {@code Object[]} of its fields' values to write, an {@code InternalRow} read;</li>
 *   <li>array: an {@code Object[]} of its elements' values, or an {@code UnsafeArrayData} that is copied
 *   as it is (a primitive Java array, {@link ArrayLayout#copyOf}), to write; an {@code ArrayData} read;</li>
 *   <li>map: {@link MapLayout.Entries} to write, a {@code MapData} read.</li>
 * </ul>
 * {@code null} is SQL's NULL: a struct field or an array element is null or a value as above.
 */
abstract sealed class Layout permits AtomLayout, DecimalLayout, StructLayout, ArrayLayout, MapLayout {
    final DataType type;

    Layout(DataType type) {
        this.type = type;
    }

    /** The plan of {@code type}; throws {@link Uncovered} for a type it does not cover (see {@link #uncovered}). */
    static Layout of(DataType type) {
        if (type instanceof StructType struct) {
            StructField[] fields = struct.fields();
            Layout[] layouts = new Layout[fields.length];
            for (int i = 0; i < fields.length; i++) {
                layouts[i] = of(fields[i].dataType());
            }
            return new StructLayout(struct, layouts);
        }
        if (type instanceof ArrayType array) {
            return new ArrayLayout(array, of(array.elementType()));
        }
        if (type instanceof MapType map) {
            return new MapLayout(map, of(map.keyType()), of(map.valueType()));
        }
        if (type instanceof DecimalType decimal) {
            return new DecimalLayout(decimal);
        }
        return AtomLayout.of(type);
    }

    /**
     * The first type in {@code type} (itself, a field, an element, a key or a value, at any depth) that
     * has no plan, or null when all of it has one: the atomic types boolean to double, string (binary
     * collation), binary, decimal, date, timestamp, timestamp_ntz, the three interval types; structs,
     * arrays and maps of them.
     */
    static DataType uncovered(DataType type) {
        try {
            of(type);
            return null;
        } catch (Uncovered e) {
            return e.type;
        }
    }

    /** A type with no plan (no stack trace: {@link #uncovered} expects it). */
    static final class Uncovered extends RuntimeException {
        final transient DataType type;

        Uncovered(DataType type) {
            super("no layout for " + type.sql(), null, false, false);
            this.type = type;
        }
    }

    /**
     * Bytes of an array element of this type ({@code UnsafeArrayWriter}'s element size, as
     * {@code GenerateUnsafeProjection} picks it): the value of a fixed-width primitive, else 8 for an
     * offset and a size.
     */
    int elementSize() {
        return 8;
    }

    /** Writes the non-null {@code value} (the layout's value) at {@code ordinal}. */
    abstract void write(UnsafeWriter writer, int ordinal, Object value);

    /**
     * Writes the non-null {@code value} with {@code layout}: an atom, the common case, through a call the JIT
     * can inline (a row's or an array's loop calls every kind of layout).
     */
    static void writeValue(Layout layout, UnsafeWriter writer, int ordinal, Object value) {
        if (layout instanceof AtomLayout atom) {
            atom.write(writer, ordinal, value);
        } else {
            layout.write(writer, ordinal, value);
        }
    }

    /** Writes a null struct field at {@code ordinal}, as {@code GenerateUnsafeProjection} does. */
    void writeNullField(UnsafeRowWriter writer, int ordinal) {
        writer.setNullAt(ordinal);
    }

    /** Writes a null array element at {@code index}: its null bit, and zeroes in its slot. */
    final void writeNullElement(UnsafeArrayWriter writer, int index) {
        switch (elementSize()) {
            case 1 -> writer.setNull1Bytes(index);
            case 2 -> writer.setNull2Bytes(index);
            case 4 -> writer.setNull4Bytes(index);
            default -> writer.setNull8Bytes(index);
        }
    }

    /** The non-null value at {@code ordinal}: an atom as a new object, a nested value as a view of the bytes. */
    abstract Object read(SpecializedGetters data, int ordinal);

    /**
     * Spark's {@code Murmur3Hash} step ({@code InterpretedHashFunction.hash}) for the non-null value at
     * {@code ordinal}, from {@code seed}; read with typed getters ({@code UnsafeRow.get(i, type)} would
     * load {@code SQLConf}).
     */
    abstract int hash(SpecializedGetters data, int ordinal, int seed);

    /** {@link #hash} of the value at {@code ordinal}, which may be null: a null leaves the seed as it is. */
    final int hashNullable(SpecializedGetters data, int ordinal, int seed) {
        return data.isNullAt(ordinal) ? seed : hash(data, ordinal, seed);
    }

    /** Whether Spark SQL orders values of this type (no maps, no calendar intervals, at any depth). */
    boolean orderable() {
        return true;
    }

    /**
     * Spark SQL's ascending order ({@code PhysicalDataType}'s ordering, nulls first inside nested
     * values) of the non-null values {@code a[i]} and {@code b[j]}; only for {@link #orderable()} types.
     */
    abstract int compare(SpecializedGetters a, int i, SpecializedGetters b, int j);

    /** {@link #compare} of values that may be null: nulls first. */
    final int compareNullable(SpecializedGetters a, int i, SpecializedGetters b, int j) {
        boolean aNull = a.isNullAt(i);
        boolean bNull = b.isNullAt(j);
        if (aNull || bNull) {
            return aNull == bNull ? 0 : aNull ? -1 : 1;
        }
        return compare(a, i, b, j);
    }

    /** For the types Spark does not order. */
    final IllegalStateException unordered() {
        return new IllegalStateException("Spark SQL does not order values of " + type.sql());
    }
}
