package dev.twstester.junit.assertj;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Encoders;
import org.assertj.core.api.ListAssert;
import org.assertj.core.api.OptionalAssert;
import org.assertj.core.presentation.StandardRepresentation;

import dev.twstester.io.EncoderRows;
import dev.twstester.junit.internal.RowEquality;

/**
 * Rows of a class without its own {@code equals()} compared as Spark compares them: by their
 * encoded value, the bytes of the encoder's {@code UnsafeRow}. The simulator hands out copies made
 * through the encoder (as Spark does), so such rows are never the same object as the ones a test
 * expects, and {@code Object.equals} would fail every assertion. A failure message says they were
 * compared by value, and shows each row as its class name and its fields as JSON
 * ({@code DoorEvent{"door":"front","open":true,...}}) instead of {@code DoorEvent@1a2b}. Rows of
 * classes with {@code equals()} are left to it.
 */
final class RowsByValue<T> implements Comparator<T> {
    private final Class<?> type;
    private final EncoderRows<T> rows;

    private RowsByValue(Class<?> type, EncoderRows<T> rows) {
        this.type = type;
        this.rows = rows;
    }

    /**
     * {@code list} comparing its rows by value when their class (of {@code encoder}, or when that is
     * null, of the first row, encoded as a bean) has no {@code equals()}; else {@code list} as it is.
     */
    static <T> ListAssert<T> compare(ListAssert<T> list, List<? extends T> actual, Encoder<?> encoder) {
        RowsByValue<T> byValue = of(encoder, actual.stream().filter(Objects::nonNull).findFirst().orElse(null));
        if (byValue == null) {
            return list;
        }
        return list.usingElementComparator(byValue).withRepresentation(byValue.representation());
    }

    /** {@code optional} comparing its value by value, as {@link #compare(ListAssert, List, Encoder)}. */
    static <T> OptionalAssert<T> compare(OptionalAssert<T> optional, T actual) {
        RowsByValue<T> byValue = of(null, actual);
        if (byValue == null) {
            return optional;
        }
        // AssertJ's Optional messages do not name the comparator: the description does
        return optional.usingValueComparator(byValue).withRepresentation(byValue.representation())
                .describedAs(optional.descriptionText() + "; rows compared by " + byValue);
    }

    @SuppressWarnings("unchecked")
    private static <T> RowsByValue<T> of(Encoder<?> encoder, Object sample) {
        Encoder<T> e = (Encoder<T>) encoder;
        Class<?> type = e != null ? e.clsTag().runtimeClass() : sample == null ? null : sample.getClass();
        if (type == null || type.isPrimitive() || RowEquality.hasOwnEquals(type)) {
            return null;
        }
        try {
            return new RowsByValue<>(type, EncoderRows.of(e != null ? e : (Encoder<T>) Encoders.bean(type)));
        } catch (RuntimeException notABean) {
            return null; // no encoder to compare by: equals as before
        }
    }

    @Override
    public int compare(T a, T b) {
        if (type.isInstance(a) && type.isInstance(b)) {
            try {
                return Arrays.compare(rows.encode(a), rows.encode(b));
            } catch (RuntimeException cannotEncode) {
                // e.g. a null in a primitive column of an expected row: not the same as any row Spark gives
            }
        }
        return Objects.equals(a, b) ? 0 : System.identityHashCode(a) < System.identityHashCode(b) ? -1 : 1;
    }

    /** What AssertJ shows after "when comparing values using". */
    @Override
    public String toString() {
        return "their encoded value: " + type.getSimpleName() + " has no equals(), so its rows were compared by value,"
                + " as Spark compares rows (the bytes of " + type.getSimpleName() + "'s encoder); add equals() and"
                + " hashCode() to " + type.getSimpleName() + " to compare with them instead";
    }

    /** AssertJ's representation, with rows of {@code type} shown as their class name and fields. */
    private StandardRepresentation representation() {
        return new StandardRepresentation() {
            @Override
            public String toStringOf(Object o) {
                if (o instanceof java.util.Optional<?> optional && optional.isPresent()) {
                    return "Optional[" + toStringOf(optional.get()) + "]";
                }
                return super.toStringOf(o);
            }

            @Override
            protected String fallbackToStringOf(Object o) {
                if (type.isInstance(o) && !hasOwnToString(o.getClass())) {
                    try {
                        return o.getClass().getSimpleName() + rows.toJson(cast(o));
                    } catch (RuntimeException e) {
                        // a row the encoder cannot write: Java's own text
                    }
                }
                return super.fallbackToStringOf(o);
            }
        };
    }

    @SuppressWarnings("unchecked")
    private T cast(Object o) {
        return (T) o;
    }

    private static boolean hasOwnToString(Class<?> type) {
        try {
            return type.getMethod("toString").getDeclaringClass() != Object.class;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }
}
