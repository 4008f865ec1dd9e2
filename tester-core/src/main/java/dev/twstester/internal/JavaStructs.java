package dev.twstester.internal;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.SpecializedGetters;
import org.apache.spark.sql.catalyst.expressions.codegen.UnsafeRowWriter;

/**
 * A Java bean, a Scala tuple or a Scala case class as a struct of its fields ({@link StructLayout}): the
 * bean's getters (a tuple's elements, a case class's accessors) give the fields' values; a new bean gets
 * them through its setters, in the order Spark's {@code InitializeJavaBean} calls them, a tuple and a case
 * class through their constructor ({@code NewInstance}).
 */
abstract class JavaStructs extends JavaValues<StructLayout> implements StructLayout.FieldWriter {
    final String[] names;
    final JavaValues<?>[] fields;
    final boolean[] nullable;
    final Constructor<?> constructor;

    JavaStructs(StructLayout layout, Class<?> cls, String[] names, JavaValues<?>[] fields, boolean[] nullable,
            Constructor<?> constructor) {
        super(layout, cls);
        this.names = names;
        this.fields = fields;
        this.nullable = nullable;
        this.constructor = constructor;
    }

    /** Field {@code j} of {@code struct}, an instance of the class. */
    abstract Object field(Object struct, int j);

    /** The values of the struct's fields (null where a field is null): the layout's value of the struct. */
    @Override
    final Object toInternal(Object value) {
        Object struct = external.cast(value);
        Object[] values = new Object[fields.length];
        for (int j = 0; j < fields.length; j++) {
            values[j] = fieldValue(struct, j);
        }
        return values;
    }

    /** The struct as a top-level row ({@link StructLayout#toBytes}): each field written as it is converted. */
    @Override
    public final void writeFields(StructLayout row, UnsafeRowWriter writer, Object value) {
        Object struct = external.cast(value);
        for (int j = 0; j < fields.length; j++) {
            row.writeField(writer, j, fieldValue(struct, j));
        }
    }

    /** The layout's value of field {@code j} of {@code struct}, or null. */
    private Object fieldValue(Object struct, int j) {
        Object f = field(struct, j);
        if (f != null) {
            return fields[j].toInternal(f);
        }
        if (!nullable[j]) {
            throw new NullPointerException("null in the non-nullable field " + names[j] + " of " + external.getName());
        }
        return null;
    }

    @Override
    final Object read(SpecializedGetters data, int ordinal) {
        return fromRow((InternalRow) layout.read(data, ordinal));
    }

    /** A new instance of the class from {@code row}'s fields. */
    abstract Object fromRow(InternalRow row);

    /** Field {@code j} of {@code row} as a new Java object; a null one as Spark's deserializer reads it (null, 0, None). */
    final Object readField(InternalRow row, int j) {
        if (row.isNullAt(j)) {
            return fields[j].nullValue();
        }
        return fields[j].read(row, j);
    }

    final Object construct(Object... args) {
        try {
            return constructor.newInstance(args);
        } catch (InvocationTargetException e) {
            throw Sneaky.raise(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot create " + external.getName() + ": " + e, e);
        }
    }

    static Object invoke(Method m, Object target, Object... args) {
        try {
            return m.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw Sneaky.raise(e.getCause());
        } catch (IllegalAccessException e) {
            m.setAccessible(true);
            return invoke(m, target, args);
        }
    }

    /** A Java bean: getters, a public no-argument constructor and setters. */
    static final class Bean extends JavaStructs {
        private final Method[] getters;
        private final Method[] setters;
        /** Setter indexes in the order Spark's {@code InitializeJavaBean} calls them (a Scala Map's order). */
        private final int[] setterOrder;

        Bean(StructLayout layout, Class<?> cls, String[] names, JavaValues<?>[] fields, boolean[] nullable,
                Method[] getters, Method[] setters, int[] setterOrder, Constructor<?> constructor) {
            super(layout, cls, names, fields, nullable, constructor);
            this.getters = getters;
            this.setters = setters;
            this.setterOrder = setterOrder;
        }

        @Override
        Object field(Object struct, int j) {
            return invoke(getters[j], struct);
        }

        @Override
        Object fromRow(InternalRow row) {
            Object bean = construct();
            for (int j : setterOrder) {
                invoke(setters[j], bean, readField(row, j));
            }
            return bean;
        }
    }

    /**
     * A Scala tuple ({@code productElement}s) or case class (its accessors, which Spark's serializer
     * {@code Invoke}s by the field's name), and the constructor of all fields.
     */
    static final class Tuple extends JavaStructs {
        /** A case class's accessors, or null for a tuple. */
        private final Method[] accessors;

        Tuple(StructLayout layout, Class<?> cls, String[] names, JavaValues<?>[] fields, boolean[] nullable,
                Method[] accessors, Constructor<?> constructor) {
            super(layout, cls, names, fields, nullable, constructor);
            this.accessors = accessors;
        }

        @Override
        Object field(Object struct, int j) {
            return accessors == null ? ((scala.Product) struct).productElement(j) : invoke(accessors[j], struct);
        }

        @Override
        Object fromRow(InternalRow row) {
            Object[] args = new Object[fields.length];
            for (int j = 0; j < fields.length; j++) {
                args[j] = readField(row, j);
            }
            return construct(args);
        }
    }
}
