package dev.twstester.internal;

import java.util.Arrays;

import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.CalendarIntervalType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DayTimeIntervalType;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.types.YearMonthIntervalType;

/**
 * How the values of an external {@code Row} of a schema map to and from the values of Spark's row
 * layout ({@link Layout}), as Spark's lenient row encoder ({@code ExpressionEncoder.apply(schema, true)})
 * validates and converts them: a tree of these, one per value position, is the schema-driven side of
 * {@link ExternalRows}. This file holds the atomic positions; {@link RowStructs}, {@link RowArrays} and
 * {@link RowMaps} the rest.
 */
abstract class RowValues<L extends Layout> {
    /** The position's layout, typed: a call to it is one the JIT can inline (each layout class is final). */
    final L layout;
    final RowSource source;

    RowValues(L layout, RowSource source) {
        this.layout = layout;
        this.source = source;
    }

    /**
     * The values of the positions of {@code layout}, at {@code source}. {@code lambdaIds[0]} counts the
     * lambda variables the encoder made so far: Spark numbers them depth first, as this builds.
     */
    static RowValues<?> of(Layout layout, RowSource source, int[] lambdaIds) {
        if (layout instanceof StructLayout struct) {
            return new RowStructs(struct, source, lambdaIds);
        }
        if (layout instanceof ArrayLayout array) {
            return new RowArrays(array, source, lambdaIds);
        }
        if (layout instanceof MapLayout map) {
            return new RowMaps(map, source, lambdaIds);
        }
        if (layout instanceof DecimalLayout decimal) {
            return new Decimals(decimal, source);
        }
        return new Atom((AtomLayout) layout, source, ExternalAtom.of(layout.type));
    }

    /**
     * The layout's value of the non-null {@code value}, or null where Spark's conversion yields null: Spark's
     * {@code ValidateExternalType} ({@link #accepts}, else {@code INVALID_EXTERNAL_TYPE}), then the conversion.
     */
    final Object toInternal(Object value) {
        if (!accepts(value)) {
            throw CodecErrors.invalidExternalType(value, encoderType(layout.type), source.sql());
        }
        return convert(value);
    }

    /** Whether {@code value} is of a class the row encoder accepts here. */
    abstract boolean accepts(Object value);

    /** The layout's value of {@code value}, which {@link #accepts} (null where Spark's conversion yields null). */
    abstract Object convert(Object value);

    /** The non-null value at {@code ordinal} ({@link Layout#read}), as the row encoder's deserializer gives it. */
    abstract Object read(SpecializedGetters data, int ordinal);

    /** The external class Spark's lenient encoder declares, as {@code ValidateExternalType} prints it. */
    abstract String externalTypeSql();

    /** The expression validating this position's value ({@code ValidateExternalType}). */
    final String validatedSql() {
        DataType type = encoderType(layout.type);
        String expected = type instanceof StructType struct
                ? String.join(", ", Arrays.stream(struct.fields()).map(StructField::toString).toList())
                : type.toString();
        return "validateexternaltype(" + source.sql() + ", " + expected + ", " + externalTypeSql() + ")";
    }

    /**
     * The type Spark's row encoder declares for {@code type}, as its errors name it: every day-time interval
     * is {@code INTERVAL DAY TO SECOND} and every year-month one {@code INTERVAL YEAR TO MONTH}.
     */
    static DataType encoderType(DataType type) {
        if (type instanceof DayTimeIntervalType) {
            return DayTimeIntervalType.apply();
        }
        if (type instanceof YearMonthIntervalType) {
            return YearMonthIntervalType.apply();
        }
        if (type instanceof ArrayType array) {
            return new ArrayType(encoderType(array.elementType()), array.containsNull());
        }
        if (type instanceof MapType map) {
            return new MapType(encoderType(map.keyType()), encoderType(map.valueType()), map.valueContainsNull());
        }
        if (type instanceof StructType struct) {
            return new StructType(Arrays.stream(struct.fields())
                    .map(f -> new StructField(f.name(), encoderType(f.dataType()), f.nullable(), f.metadata()))
                    .toArray(StructField[]::new));
        }
        return type;
    }

    /** An atomic value of its {@link ExternalAtom} class (either time class for a date or a timestamp). */
    static final class Atom extends RowValues<AtomLayout> {
        private final ExternalAtom atom;

        Atom(AtomLayout layout, RowSource source, ExternalAtom atom) {
            super(layout, source);
            this.atom = atom;
        }

        @Override
        boolean accepts(Object value) {
            return atom.accepts(value);
        }

        @Override
        Object convert(Object value) {
            return atom.sameTypeAs(value).toInternal(value);
        }

        @Override
        Object read(SpecializedGetters data, int ordinal) {
            return atom.toExternal(layout.read(data, ordinal));
        }

        @Override
        String externalTypeSql() {
            DataType type = layout.type;
            if (type instanceof BinaryType || type instanceof CalendarIntervalType) {
                return type.toString();
            }
            // a date or a timestamp may be of either time class: the encoder declares Object
            boolean eitherTimeClass = atom == ExternalAtom.DATE || atom == ExternalAtom.TIMESTAMP;
            return "ObjectType(" + (eitherTimeClass ? Object.class : atom.javaClass) + ")";
        }
    }

    /**
     * A Java, Scala or Spark decimal, as {@code Decimal.fromDecimal} then {@code CheckOverflow}: rounded
     * half-up to the scale; on overflow null, or with ANSI mode on ({@code nullOnOverflow} false) Spark's error.
     */
    static final class Decimals extends RowValues<DecimalLayout> {
        Decimals(DecimalLayout layout, RowSource source) {
            super(layout, source);
        }

        @Override
        boolean accepts(Object value) {
            return ExternalAtom.isDecimal(value);
        }

        @Override
        Object convert(Object value) {
            Decimal d = Decimal.fromDecimal(value);
            Decimal rounded = d.toPrecision(layout.precision, layout.scale, Decimal.ROUND_HALF_UP(), true, null);
            if (rounded == null && ansiEnabled()) {
                // throws Spark's error
                d.toPrecision(layout.precision, layout.scale, Decimal.ROUND_HALF_UP(), false, null);
            }
            return rounded;
        }

        /** Spark's {@code nullOnOverflow} of {@code CheckOverflow}: decimals overflow to null unless ANSI mode is on. */
        private static boolean ansiEnabled() {
            SparkLogs.simulator();
            return SQLConf.get().ansiEnabled();
        }

        @Override
        Object read(SpecializedGetters data, int ordinal) {
            return ((Decimal) layout.read(data, ordinal)).toJavaBigDecimal();
        }

        @Override
        String externalTypeSql() {
            return "ObjectType(class java.lang.Object)";
        }
    }
}
