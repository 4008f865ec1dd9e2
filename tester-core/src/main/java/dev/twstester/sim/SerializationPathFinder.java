package dev.twstester.sim;

import java.io.DataOutputStream;
import java.io.Externalizable;
import java.io.IOException;
import java.io.ObjectOutput;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.ObjectStreamField;
import java.io.OutputStream;
import java.io.Serializable;
import java.lang.invoke.SerializedLambda;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/**
 * The path from an object to the first object Java serialization cannot write, found and worded
 * as Spark 4.2.0's {@code SerializationDebugger} (spark-core) does, so the simulator's
 * "Task not serializable" shows the "Serialization stack" lines of a live run.
 *
 * <p>The walk is Spark's: arrays element by element, {@code Externalizable} objects through what
 * {@code writeExternal} writes, {@code writeReplace} followed, then per serializable class in the
 * hierarchy (top-most first) either the serializable fields (transient and static ones are not
 * serialized; primitives skipped, the rest by name) or, if the class has its own
 * {@code writeObject}, the objects a real serialization writes. Spark reads
 * {@code ObjectStreamClass} internals (it runs with {@code --add-opens java.base/java.io}); this
 * uses public reflection, and where a JDK class's fields cannot be opened it looks at the objects
 * serialization writes instead, which skips that class's field line. Objects are visited once by
 * identity (Spark's set uses {@code equals}).
 */
final class SerializationPathFinder {

    /**
     * One line of the stack, without Spark's {@code "\t- "}. {@code field} is set on field lines
     * (with the declaring class as {@code type}); on the "object not serializable" line {@code type}
     * is the object's class.
     */
    record Step(String text, String field, Class<?> type) {
        static Step of(String text) {
            return new Step(text, null, null);
        }
    }

    private final Set<Object> visited = Collections.newSetFromMap(new IdentityHashMap<>());

    private SerializationPathFinder() {}

    /**
     * The stack from the object that cannot be serialized (first) out to {@code root} (last), or
     * an empty list if everything reachable serializes. Throws whatever user code ({@code toString},
     * {@code writeReplace}, {@code writeObject}, {@code writeExternal}) throws, as Spark's does.
     */
    static List<Step> find(Object root) throws IOException {
        List<Step> path = new SerializationPathFinder().visit(root);
        return path == null ? List.of() : path;
    }

    private List<Step> visit(Object o) throws IOException {
        if (o == null || !visited.add(o)) {
            return null;
        }
        Class<?> c = o.getClass();
        if (o instanceof String || c.isArray() && c.getComponentType().isPrimitive()) {
            return null;
        }
        if (o instanceof Object[] array) {
            String elem = "array (class " + c.getName() + ", size " + array.length + ")";
            return then(visitArray(array), elem);
        }
        if (o instanceof Externalizable e) {
            String elem = "externalizable object (class " + c.getName() + ", " + e + ")";
            return then(visitExternalizable(e), elem);
        }
        if (o instanceof Serializable) {
            String elem = "object (class " + c.getName() + ", " + safeToString(o) + ")";
            return then(visitSerializable(o), elem);
        }
        List<Step> path = new ArrayList<>();
        path.add(new Step("object not serializable (class: " + c.getName() + ", value: " + o + ")", null, c));
        return path;
    }

    /** {@code path} with {@code step} added on the outside, or null if nothing was found. */
    private static List<Step> then(List<Step> path, Step step) {
        if (path != null) {
            path.add(step);
        }
        return path;
    }

    private static List<Step> then(List<Step> path, String text) {
        return then(path, Step.of(text));
    }

    private static String safeToString(Object o) {
        try {
            return String.valueOf(o);
        } catch (RuntimeException e) {
            return "exception in toString";
        }
    }

    private List<Step> visitArray(Object[] array) throws IOException {
        for (int i = 0; i < array.length; i++) {
            List<Step> path = then(visit(array[i]), "element of array (index: " + i + ")");
            if (path != null) {
                return path;
            }
        }
        return null;
    }

    private List<Step> visitExternalizable(Externalizable e) throws IOException {
        ObjectsWritten written = new ObjectsWritten();
        e.writeExternal(written.output());
        for (Object child : written.objects) {
            List<Step> path = then(visit(child), "writeExternal data");
            if (path != null) {
                return path;
            }
        }
        return null;
    }

    private List<Step> visitSerializable(Object o) throws IOException {
        Object replaced = ReplacementProbe.replace(o);
        if (replaced == null) {
            return null;
        }
        if (replaced.getClass() != o.getClass()) {
            return then(visit(replaced), "writeReplace data (class: " + replaced.getClass().getName() + ")");
        }
        for (Class<?> slot : slots(replaced.getClass())) {
            List<Step> path = hasWriteObject(slot)
                    ? then(visitWritten(replaced), "writeObject data (class: " + slot.getName() + ")")
                    : visitFields(replaced, slot);
            if (path != null) {
                return path;
            }
        }
        return null;
    }

    /** The serializable classes of {@code c}'s hierarchy, top-most first: Java serialization's slots. */
    private static List<Class<?>> slots(Class<?> c) {
        List<Class<?>> slots = new ArrayList<>();
        for (Class<?> s = c; s != null && Serializable.class.isAssignableFrom(s); s = s.getSuperclass()) {
            slots.add(0, s);
        }
        return slots;
    }

    private static boolean hasWriteObject(Class<?> slot) {
        try {
            Method m = slot.getDeclaredMethod("writeObject", ObjectOutputStream.class);
            int mod = m.getModifiers();
            return m.getReturnType() == void.class && Modifier.isPrivate(mod) && !Modifier.isStatic(mod);
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private List<Step> visitFields(Object o, Class<?> slot) throws IOException {
        ObjectStreamField[] fields = ObjectStreamClass.lookup(slot).getFields();
        for (ObjectStreamField f : fields) {
            if (f.isPrimitive()) {
                continue;
            }
            Object value;
            try {
                value = value(o, slot, f.getName());
            } catch (InaccessibleField e) {
                return visitWritten(o);
            }
            String text = "field (class: " + slot.getName() + ", name: " + f.getName() + ", type: " + f.getType() + ")";
            List<Step> path = then(visit(value), new Step(text, f.getName(), slot));
            if (path != null) {
                return path;
            }
        }
        return null;
    }

    /** A field's value; a serializable field with no declared field of that name writes null. */
    private static Object value(Object o, Class<?> slot, String name) throws InaccessibleField {
        if (o instanceof SerializedLambda lambda && name.equals("capturedArgs")) {
            Object[] args = new Object[lambda.getCapturedArgCount()];   // public getters: no --add-opens needed
            for (int i = 0; i < args.length; i++) {
                args[i] = lambda.getCapturedArg(i);
            }
            return args;
        }
        Field field;
        try {
            field = slot.getDeclaredField(name);
        } catch (NoSuchFieldException e) {
            return null;
        }
        if (!field.trySetAccessible()) {
            throw new InaccessibleField();
        }
        try {
            return field.get(o);
        } catch (IllegalAccessException e) {
            throw new InaccessibleField();
        }
    }

    /**
     * Spark's way into a class with its own {@code writeObject}: serialize {@code o} to nowhere,
     * recording every object written, and if that failed, visit them in order.
     */
    private List<Step> visitWritten(Object o) throws IOException {
        ObjectsWritten written = new ObjectsWritten();
        boolean failed = false;
        try (ObjectOutputStream out = written.stream()) {
            out.writeObject(o);
        } catch (IOException e) {
            failed = true;
        }
        if (!failed) {
            visited.addAll(written.objects);
            return null;
        }
        for (Object child : written.objects) {
            List<Step> path = visit(child);
            if (path != null) {
                return path;
            }
        }
        return null;
    }

    /** Marks a field reflection may not read (a JDK class whose package is not opened). */
    private static final class InaccessibleField extends Exception {
        InaccessibleField() {
            super(null, null, false, false);
        }
    }

    /** Collects the objects written to an {@code ObjectOutput} or an {@code ObjectOutputStream}. */
    private static final class ObjectsWritten {
        final List<Object> objects = new ArrayList<>();

        ObjectOutputStream stream() throws IOException {
            return new ObjectOutputStream(OutputStream.nullOutputStream()) {
                {
                    enableReplaceObject(true);
                }

                @Override
                protected Object replaceObject(Object obj) {
                    objects.add(obj);
                    return obj;
                }
            };
        }

        ObjectOutput output() {
            return new CollectingOutput(objects);
        }
    }

    /** An {@code ObjectOutput} that keeps the objects written and drops everything else. */
    private static final class CollectingOutput extends DataOutputStream implements ObjectOutput {
        private final List<Object> objects;

        CollectingOutput(List<Object> objects) {
            super(OutputStream.nullOutputStream());
            this.objects = objects;
        }

        @Override
        public void writeObject(Object obj) {
            objects.add(obj);
        }
    }

    /**
     * Applies {@code writeReplace} as serialization would (repeatedly, until the class stays the
     * same) by serializing to nowhere and catching the first object handed to {@code replaceObject},
     * which is the replacement; this calls private {@code writeReplace} methods without reflection.
     */
    private static final class ReplacementProbe extends ObjectOutputStream {
        private static final IOException FOUND = new IOException("replacement found", null) {
            @Override
            public synchronized Throwable fillInStackTrace() {
                return this;
            }
        };
        private Object replacement;
        private boolean found;

        private ReplacementProbe() throws IOException {
            super(OutputStream.nullOutputStream());
            enableReplaceObject(true);
        }

        static Object replace(Object o) throws IOException {
            if (!declaresWriteReplace(o.getClass())) {
                return o;
            }
            ReplacementProbe probe = new ReplacementProbe();
            try {
                probe.writeObject(o);
            } catch (IOException e) {
                if (e != FOUND) {
                    throw e;
                }
            }
            return probe.replacement;
        }

        private static boolean declaresWriteReplace(Class<?> c) {
            for (Class<?> s = c; s != null; s = s.getSuperclass()) {
                for (Method m : s.getDeclaredMethods()) {
                    if (m.getName().equals("writeReplace") && m.getParameterCount() == 0) {
                        return true;
                    }
                }
            }
            return false;
        }

        @Override
        protected Object replaceObject(Object obj) throws IOException {
            if (!found) {   // later calls: the stream writing FOUND itself as its fatal exception
                found = true;
                replacement = obj;
            }
            throw FOUND;
        }
    }
}
