package dev.twstester.sim;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.function.Supplier;

import org.apache.spark.SparkException;
import org.apache.spark.sql.streaming.StatefulProcessor;

/**
 * Spark serializes the driver's processor (after the driver-side {@code init}/{@code close}
 * pass) into every task and deserializes a fresh instance per partition per batch, so fields set
 * on executors never carry over. This does the same with Java serialization.
 *
 * <p>Deserializing costs microseconds per batch. When a new instance from the query's supplier is
 * provably the same as a deserialized copy (equal serialized form, every transient field at its
 * default as deserialization leaves it, no custom {@code readObject}/{@code readResolve}, a new
 * object per call), the supplier is used instead.
 */
final class ProcessorCopies<P extends StatefulProcessor<?, ?, ?>> {
    private final byte[] bytes;
    private final SparkException notSerializable;
    private final ClassLoader loader;
    private final Supplier<? extends P> equivalentSupplier;

    ProcessorCopies(P driverInstance, Supplier<? extends P> supplier) {
        this.loader = driverInstance.getClass().getClassLoader();
        byte[] serialized = null;
        SparkException failure = null;
        try {
            serialized = serialize(driverInstance);
        } catch (IOException e) {
            failure = new SparkException("Task not serializable: the processor " + driverInstance.getClass().getName()
                    + " cannot be Java-serialized (" + e + "); Spark ships it to every task, so make its fields "
                    + "serializable or transient", e);
        }
        this.bytes = serialized;
        this.notSerializable = failure;
        this.equivalentSupplier = serialized != null && supplierIsEquivalent(serialized, supplier) ? supplier : null;
    }

    /** A fresh copy, as a task would deserialize it. */
    P fresh() {
        if (notSerializable != null) {
            throw Sneaky.raise(notSerializable);
        }
        if (equivalentSupplier != null) {
            return equivalentSupplier.get();
        }
        return deserialize();
    }

    @SuppressWarnings("unchecked")
    private P deserialize() {
        try (ObjectInputStream in = new LoaderObjectInputStream(new ByteArrayInputStream(bytes), loader)) {
            return (P) in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalStateException("could not deserialize the processor: " + e, e);
        }
    }

    private static byte[] serialize(Object o) throws IOException {
        try (ByteArrayOutputStream out = new ByteArrayOutputStream(); ObjectOutputStream oos = new ObjectOutputStream(out)) {
            oos.writeObject(o);
            oos.flush();
            return out.toByteArray();
        }
    }

    private static boolean supplierIsEquivalent(byte[] driverBytes, Supplier<?> supplier) {
        try {
            Object a = supplier.get();
            Object b = supplier.get();
            return a != b && a != null && a.getClass() == b.getClass()
                    && Arrays.equals(driverBytes, serialize(a))
                    && transientFieldsAreDefault(a) && noCustomDeserialization(a.getClass());
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static boolean transientFieldsAreDefault(Object o) {
        for (Class<?> c = o.getClass(); c != null && c != StatefulProcessor.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                int m = f.getModifiers();
                if (Modifier.isTransient(m) && !Modifier.isStatic(m) && !isDefault(f, o)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean isDefault(Field f, Object o) {
        try {
            f.setAccessible(true);
            Object v = f.get(o);
            return v == null || v.equals(Boolean.FALSE) || (v instanceof Number n && n.doubleValue() == 0)
                    || v.equals('\0');
        } catch (ReflectiveOperationException | RuntimeException e) {
            return false;
        }
    }

    private static boolean noCustomDeserialization(Class<?> type) {
        for (Class<?> c = type; c != null && c != StatefulProcessor.class; c = c.getSuperclass()) {
            for (String name : new String[] {"readObject", "readResolve", "readObjectNoData"}) {
                if (Arrays.stream(c.getDeclaredMethods()).anyMatch(m -> m.getName().equals(name))) {
                    return false;
                }
            }
        }
        return true;
    }

    private static final class LoaderObjectInputStream extends ObjectInputStream {
        private final ClassLoader loader;

        LoaderObjectInputStream(InputStream in, ClassLoader loader) throws IOException {
            super(in);
            this.loader = loader;
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            try {
                return Class.forName(desc.getName(), false, loader);
            } catch (ClassNotFoundException e) {
                return super.resolveClass(desc);
            }
        }
    }
}
