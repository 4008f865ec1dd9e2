package dev.twstester.internal;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema;
import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeRowWriter;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A {@link Row} as a struct ({@link StructLayout}), top-level or nested: {@code RowEncoder}'s serializer
 * reads the fields in order ({@code GetExternalRowField}), each validated then converted; the
 * deserializer gives a {@link GenericRowWithSchema} of the default external classes.
 */
final class RowStructs extends RowValues<StructLayout> implements StructLayout.FieldWriter {
    private final StructType schema;
    private final StructField[] fields;
    private final RowValues<?>[] children;

    RowStructs(StructLayout layout, RowSource source, int[] lambdaIds) {
        super(layout, source);
        this.schema = (StructType) layout.type;
        this.fields = schema.fields();
        this.children = new RowValues<?>[fields.length];
        for (int i = 0; i < fields.length; i++) {
            children[i] = RowValues.of(layout.fields[i], new RowSource.Field(this, i, fields[i].name()), lambdaIds);
        }
    }

    @Override
    boolean accepts(Object value) {
        return value instanceof Row;
    }

    @Override
    Object convert(Object value) {
        return fieldsOf((Row) value);
    }

    /** The layout's values of {@code row}'s fields: the row encoder's serializer, field by field. */
    Object[] fieldsOf(Row row) {
        Object[] values = new Object[fields.length];
        for (int i = 0; i < fields.length; i++) {
            values[i] = fieldValue(row, i);
        }
        return values;
    }

    /** The row as a top-level row ({@link StructLayout#toBytes}): each field written as it is converted. */
    @Override
    public void writeFields(StructLayout layout, UnsafeRowWriter writer, Object value) {
        Row row = (Row) value;
        for (int i = 0; i < fields.length; i++) {
            layout.writeField(writer, i, fieldValue(row, i));
        }
    }

    /** The layout's value of field {@code i} of {@code row}, or null. */
    private Object fieldValue(Row row, int i) {
        boolean nullable = fields[i].nullable();
        if (nullable && row.isNullAt(i)) {
            return null;
        }
        // GetExternalRowField
        if (row.isNullAt(i)) {
            throw new RuntimeException("The " + i + "th field '" + fields[i].name() + "' of input row cannot be null.");
        }
        Object converted = children[i].toInternal(row.get(i));
        if (converted == null && !nullable) {
            throw CodecErrors.notNull("");
        }
        return converted;
    }

    @Override
    Object read(SpecializedGetters data, int ordinal) {
        return new GenericRowWithSchema(readFields((InternalRow) layout.read(data, ordinal)), schema);
    }

    /** The external values of {@code row}'s fields. */
    Object[] readFields(InternalRow row) {
        Object[] values = new Object[fields.length];
        for (int i = 0; i < fields.length; i++) {
            values[i] = row.isNullAt(i) ? null : children[i].read(row, i);
        }
        return values;
    }

    @Override
    String externalTypeSql() {
        return "ObjectType(interface org.apache.spark.sql.Row)";
    }
}
