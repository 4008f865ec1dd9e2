package dev.twstester.sim;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;

import org.apache.spark.SparkException;
import org.apache.spark.sql.streaming.StatefulProcessor;

/**
 * Spark serializes the driver's processor (after the driver-side {@code init}/{@code close}
 * pass) into every task and deserializes a fresh instance per partition per batch, so fields set
 * on executors never carry over. This does the same with Java serialization.
 */
final class ProcessorCopies<P extends StatefulProcessor<?, ?, ?>> {
    private final byte[] bytes;
    private final SparkException notSerializable;
    private final ClassLoader loader;

    ProcessorCopies(P driverInstance) {
        this.loader = driverInstance.getClass().getClassLoader();
        byte[] serialized = null;
        SparkException failure = null;
        try (ByteArrayOutputStream out = new ByteArrayOutputStream();
                ObjectOutputStream oos = new ObjectOutputStream(out)) {
            oos.writeObject(driverInstance);
            oos.flush();
            serialized = out.toByteArray();
        } catch (IOException e) {
            failure = new SparkException("Task not serializable: the processor " + driverInstance.getClass().getName()
                    + " cannot be Java-serialized (" + e + "); Spark ships it to every task, so make its fields "
                    + "serializable or transient", e);
        }
        this.bytes = serialized;
        this.notSerializable = failure;
    }

    /** A fresh copy, as a task would deserialize it. */
    @SuppressWarnings("unchecked")
    P fresh() {
        if (notSerializable != null) {
            throw Sneaky.raise(notSerializable);
        }
        try (ObjectInputStream in = new LoaderObjectInputStream(new ByteArrayInputStream(bytes), loader)) {
            return (P) in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalStateException("could not deserialize the processor: " + e, e);
        }
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
