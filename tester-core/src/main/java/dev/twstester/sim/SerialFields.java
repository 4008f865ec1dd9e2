package dev.twstester.sim;

import java.io.Externalizable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.apache.spark.sql.streaming.StatefulProcessor;

/**
 * What Java serialization does with a processor class, found once per class: its instance fields
 * (the class's and its superclasses', {@link StatefulProcessor}'s included) and whether any class
 * on the way changes how an instance is written or read ({@code writeObject}, {@code writeReplace},
 * {@code readObject}, {@code readObjectNoData}, {@code readResolve}, {@code serialPersistentFields},
 * {@code Externalizable}).
 *
 * <p>{@link ProcessorCopies} uses it to show that a new instance from the query's supplier is what
 * deserializing the driver's instance would give, without serializing either, when every field
 * that serialization writes holds a plain value: a primitive, null, a string, a boxed primitive, a
 * {@code Duration} or an {@code Instant}. Java serialization writes such a field as its value, so two
 * instances have the same serialized form exactly when those fields are equal and the same fields
 * share one object in both; the transient fields of a deserialized copy are at their defaults.
 * <pre>{@code
 * SerialFields fields = SerialFields.of(driver.getClass());
 * fields.holdsPlainValues(driver) && fields.sameAsCopyOf(fresh, driver)   // true: fresh may stand in for a copy
 * }</pre>
 */
final class SerialFields {
    /** Values Java serialization writes as they are (no object graph behind them), equal exactly when their bytes are. */
    private static final Set<Class<?>> PLAIN_VALUES = Set.of(String.class, Boolean.class, Character.class, Byte.class,
            Short.class, Integer.class, Long.class, Float.class, Double.class, Duration.class, Instant.class);
    private static final Set<String> WRITE_HOOKS = Set.of("writeObject", "writeReplace");
    private static final Set<String> READ_HOOKS = Set.of("readObject", "readObjectNoData", "readResolve");

    private static final ClassValue<SerialFields> OF_CLASS = new ClassValue<>() {
        @Override
        protected SerialFields computeValue(Class<?> type) {
            return new SerialFields(type);
        }
    };

    /** The fields serialization writes, accessible; null when they could not be made accessible. */
    private final Field[] written;
    /** The transient instance fields, accessible; null when they could not be made accessible. */
    private final Field[] transients;
    private final boolean readHooks;
    private final boolean writeHooks;

    private SerialFields(Class<?> type) {
        List<Field> write = new ArrayList<>();
        List<Field> skip = new ArrayList<>();
        boolean read = false;
        boolean written = Externalizable.class.isAssignableFrom(type);
        boolean accessible = true;
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Method m : c.getDeclaredMethods()) {
                read |= READ_HOOKS.contains(m.getName());
                written |= WRITE_HOOKS.contains(m.getName());
            }
            for (Field f : c.getDeclaredFields()) {
                int mods = f.getModifiers();
                written |= f.getName().equals("serialPersistentFields") && Modifier.isStatic(mods);
                if (Modifier.isStatic(mods)) {
                    continue;
                }
                accessible &= f.trySetAccessible();
                (Modifier.isTransient(mods) ? skip : write).add(f);
            }
        }
        this.written = accessible ? write.toArray(new Field[0]) : null;
        this.transients = accessible ? skip.toArray(new Field[0]) : null;
        this.readHooks = read;
        this.writeHooks = written;
    }

    /** The serialization facts of {@code type}, found on first use. */
    static SerialFields of(Class<?> type) {
        return OF_CLASS.get(type);
    }

    /** Whether no class up to {@link StatefulProcessor} reads itself in its own way ({@code readObject} and the like). */
    boolean readsFieldsOnly() {
        return !readHooks;
    }

    /** Whether every transient field of {@code o} holds its default, as in a deserialized copy. */
    boolean transientsAreDefault(Object o) {
        if (transients == null) {
            return false;
        }
        for (Field f : transients) {
            if (!isDefault(read(f, o))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether {@code o} (of this class) serializes as plain values only: no serialization hooks, and
     * every field serialization writes a primitive or a plain value. Serializing it then runs no
     * code but the JDK's, and {@link #sameAsCopyOf} decides exactly.
     */
    boolean holdsPlainValues(Object o) {
        if (written == null || readHooks || writeHooks) {
            return false;
        }
        for (Field f : written) {
            if (!f.getType().isPrimitive() && !plain(read(f, o))) {
                return false;
            }
        }
        return true;
    }

    /**
     * For a {@code driver} that {@link #holdsPlainValues}: whether {@code fresh} is what
     * deserializing {@code driver} would give, that is, whether both serialize to the same bytes and
     * every transient field of {@code fresh} is at its default: the same class, every written field
     * equal to the driver's (the same ones sharing an object).
     */
    boolean sameAsCopyOf(Object fresh, Object driver) {
        if (fresh.getClass() != driver.getClass()) {
            return false;
        }
        Object[] mine = new Object[written.length];
        Object[] theirs = new Object[written.length];
        for (int i = 0; i < written.length; i++) {
            Field f = written[i];
            Object value = read(f, fresh);
            // boxed primitives compare as serialization writes them (doubles by doubleToLongBits)
            if (!(f.getType().isPrimitive() || plain(value)) || !java.util.Objects.equals(value, read(f, driver))) {
                return false;
            }
            if (!f.getType().isPrimitive()) {
                mine[i] = value;
                theirs[i] = read(f, driver);
            }
        }
        return sameSharing(mine, theirs) && transientsAreDefault(fresh);
    }

    private static boolean plain(Object value) {
        return value == null || PLAIN_VALUES.contains(value.getClass());
    }

    /** Whether the same fields hold one object in {@code a} as in {@code b} (serialization writes a shared object once). */
    private static boolean sameSharing(Object[] a, Object[] b) {
        for (int i = 0; i < a.length; i++) {
            for (int j = i + 1; j < a.length; j++) {
                if (a[i] != null && (a[i] == a[j]) != (b[i] == b[j])) {
                    return false;
                }
            }
        }
        return true;
    }

    private static Object read(Field f, Object o) {
        try {
            return f.get(o);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("field " + f + " was made accessible: " + e, e);
        }
    }

    private static boolean isDefault(Object v) {
        return v == null || v.equals(Boolean.FALSE) || (v instanceof Number n && n.doubleValue() == 0) || v.equals('\0');
    }
}
