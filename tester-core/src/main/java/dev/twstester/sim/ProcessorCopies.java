package dev.twstester.sim;

import dev.twstester.internal.Sneaky;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.apache.spark.SparkException;
import org.apache.spark.sql.streaming.StatefulProcessor;

/**
 * Spark serializes the driver's processor (after the driver-side {@code init}/{@code close}
 * pass) into every task and deserializes a fresh instance per partition per batch, so fields set
 * on executors never carry over. This does the same with Java serialization.
 *
 * <p>A processor that cannot be serialized fails the first batch of the run, as Spark's
 * {@code ClosureCleaner.ensureSerializable} fails it when the batch's plan executes: a
 * {@code SparkException} "Task not serializable" (no error class) whose cause is the
 * {@code NotSerializableException} with Spark's "Serialization stack", found by
 * {@link SerializationPathFinder}. Here the message itself carries the stack and a hint.
 *
 * <p>Deserializing costs microseconds per batch. When a new instance from the query's supplier is
 * provably the same as a deserialized copy (equal serialized form, every transient field at its
 * default as deserialization leaves it, no custom {@code readObject}/{@code readResolve}, a new
 * object per call), the supplier is used instead. When every field serialization would write
 * holds a plain value (a primitive, a string, a boxed primitive, a {@code Duration}, an
 * {@code Instant}; see {@link SerialFields}), that is shown field by field and nothing is
 * serialized at all: a fresh JVM's first simulator then does not load Java serialization (about
 * 150 classes).
 *
 * <p>The serialized form names each class instead of writing Java's full class descriptor: the
 * bytes are only compared and read back in this JVM, never by Spark, and a full descriptor carries
 * the class's {@code serialVersionUID}, which for a class that declares none (Spark's
 * {@code StatefulProcessor} among them) Java computes by hashing the class with SHA-1, loading the
 * JDK's security providers on the way: about 20 ms of a fresh JVM's first simulator. What can be
 * serialized, and how each object writes itself, is Java serialization's own.
 */
final class ProcessorCopies<P extends StatefulProcessor<?, ?, ?>> {
    private final byte[] bytes;
    private final SparkException notSerializable;
    private final ClassLoader loader;
    private final Supplier<? extends P> equivalentSupplier;

    ProcessorCopies(P driverInstance, Supplier<? extends P> supplier) {
        this.loader = driverInstance.getClass().getClassLoader();
        SerialFields fields = SerialFields.of(driverInstance.getClass());
        if (fields.holdsPlainValues(driverInstance)) {
            // serializing it runs none of the user's code, so the supplier may be asked first; its
            // instance stands in when it provably equals a copy, and nothing is serialized
            this.notSerializable = null;
            this.equivalentSupplier = freshIsCopy(driverInstance, supplier, fields) ? supplier : null;
            this.bytes = equivalentSupplier != null ? null : serializePlain(driverInstance);
            return;
        }
        byte[] serialized = null;
        SparkException failure = null;
        try {
            serialized = serialize(driverInstance);
        } catch (Exception e) {   // Spark's ensureSerializable catches any Exception
            failure = taskNotSerializable(driverInstance, e);
        }
        this.bytes = serialized;
        this.notSerializable = failure;
        this.equivalentSupplier = serialized != null && supplierIsEquivalent(serialized, supplier) ? supplier : null;
    }

    /** Whether the supplier gives a new instance per call, each what deserializing {@code driver} would give. */
    private static boolean freshIsCopy(Object driver, Supplier<?> supplier, SerialFields fields) {
        try {
            Object a = supplier.get();
            Object b = supplier.get();
            return a != b && a != null && b != null && fields.sameAsCopyOf(a, driver);
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** The serialized form of an instance that {@link SerialFields#holdsPlainValues}: it cannot fail. */
    private static byte[] serializePlain(Object o) {
        try {
            return serialize(o);
        } catch (IOException e) {
            throw new IllegalStateException("could not serialize plain values: " + e, e);
        }
    }

    /** A fresh copy, as a task would deserialize it. */
    P fresh() {
        if (notSerializable != null) {   // a new exception per failing batch, so its stack trace is the caller's
            throw Sneaky.raise(new SparkException(notSerializable.getMessage(), notSerializable.getCause()));
        }
        if (equivalentSupplier != null) {
            return equivalentSupplier.get();
        }
        return deserialize();
    }

    /**
     * Spark's failure: "Task not serializable", caused by the {@code NotSerializableException}
     * its SerializationDebugger rewrote to end with the serialization stack (or by the plain
     * exception when there is no stack to find). Our message adds the stack and a hint.
     */
    private static SparkException taskNotSerializable(Object processor, Exception failure) {
        Throwable cause = failure;
        List<SerializationPathFinder.Step> stack = null;
        if (failure instanceof NotSerializableException) {
            try {
                stack = SerializationPathFinder.find(processor);
                cause = new NotSerializableException(failure.getMessage() + "\nSerialization stack:\n" + lines(stack));
            } catch (Exception | StackOverflowError e) {
                stack = null;   // Spark keeps the plain exception when its debugger fails
            }
        }
        String message = "Task not serializable"
                + (stack == null || stack.isEmpty() ? "" : "\nSerialization stack:\n" + lines(stack))
                + "\n" + hint(stack, failure);
        return new SparkException(message, cause);
    }

    private static String lines(List<SerializationPathFinder.Step> stack) {
        return stack.stream().map(s -> "\t- " + s.text()).collect(Collectors.joining("\n"));
    }

    private static String hint(List<SerializationPathFinder.Step> stack, Exception failure) {
        String why = "Hint: Spark Java-serializes the processor into every task, after the driver ran init() and close() on it. ";
        if (stack == null || stack.isEmpty()) {
            return why + "Serializing it threw " + failure + ": mark the fields involved transient and create their "
                    + "values in init(), or make their classes Serializable.";
        }
        Class<?> culprit = stack.get(0).type();
        SerializationPathFinder.Step field = stack.size() >= 2 ? stack.get(stack.size() - 2) : null;
        String fix = field != null && field.field() != null
                ? "Mark field '" + field.field() + "' of " + field.type().getName() + " transient and create its value in init()"
                : "Mark the processor's fields that reach " + culprit.getName() + " transient and create their values in init()";
        boolean lambda = culprit.isHidden() && culprit.getName().contains("$$Lambda");
        return why + fix + ", or " + (lambda
                ? "make the lambda Serializable (a functional interface type that extends Serializable) capturing only "
                        + "serializable values."
                : "make " + culprit.getName() + " Serializable.");
    }

    @SuppressWarnings("unchecked")
    private P deserialize() {
        try (ObjectInputStream in = new LoaderObjectInputStream(new ByteArrayInputStream(bytes), loader)) {
            return (P) in.readObject();
        } catch (IOException | ClassNotFoundException e) {
            throw new IllegalStateException("could not deserialize the processor: " + e, e);
        }
    }

    /** {@code o}'s serialized form, each class named by {@link NamingOutputStream}. */
    static byte[] serialize(Object o) throws IOException {
        try (ByteArrayOutputStream out = new ByteArrayOutputStream(); ObjectOutputStream oos = new NamingOutputStream(out)) {
            oos.writeObject(o);
            oos.flush();
            return out.toByteArray();
        }
    }

    private static boolean supplierIsEquivalent(byte[] driverBytes, Supplier<?> supplier) {
        try {
            Object a = supplier.get();
            Object b = supplier.get();
            SerialFields fields = a == null ? null : SerialFields.of(a.getClass());
            return a != b && a != null && a.getClass() == b.getClass()
                    && Arrays.equals(driverBytes, serialize(a))
                    && fields.transientsAreDefault(a) && fields.readsFieldsOnly();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** Writes a class descriptor as the class's name ({@link LoaderObjectInputStream} reads it back). */
    private static final class NamingOutputStream extends ObjectOutputStream {
        NamingOutputStream(OutputStream out) throws IOException {
            super(out);
        }

        @Override
        protected void writeClassDescriptor(ObjectStreamClass desc) throws IOException {
            writeUTF(desc.getName());
        }
    }

    private static final class LoaderObjectInputStream extends ObjectInputStream {
        private final ClassLoader loader;

        LoaderObjectInputStream(InputStream in, ClassLoader loader) throws IOException {
            super(in);
            this.loader = loader;
        }

        /** A descriptor {@link NamingOutputStream} wrote: the class's name, read as this JVM's class. */
        @Override
        protected ObjectStreamClass readClassDescriptor() throws IOException, ClassNotFoundException {
            String name = readUTF();
            try {
                return ObjectStreamClass.lookupAny(Class.forName(name, false, loader));
            } catch (ClassNotFoundException e) {
                return ObjectStreamClass.lookupAny(Class.forName(name, false, ProcessorCopies.class.getClassLoader()));
            }
        }

        /** Every descriptor comes from {@link #readClassDescriptor}, which found the class already. */
        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) {
            return desc.forClass();
        }
    }
}
