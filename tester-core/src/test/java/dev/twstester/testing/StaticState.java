package dev.twstester.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The static fields of a module's main classes that can hold state shared by every test of a JVM
 * (so by tests running in parallel): a static field that is not final; a static final array,
 * {@code ThreadLocal} or {@code java.util.concurrent.atomic} value; a static final collection or
 * map that is not unmodifiable ({@code List.of}, {@code Map.copyOf},
 * {@code Collections.unmodifiable...}). Each module's test lists the ones it has, each with why it
 * is safe, so that a new one fails the build until it is made safe and listed:
 *
 * <pre>{@code
 * StaticState.assertExactly(Path.of("target/classes"), Map.of(
 *         "dev.twstester.spark.LiveSpark#session", "guarded by the class's lock (synchronized methods)"));
 * }</pre>
 *
 * <p>Synthetic fields (an enum's values, a switch's map, {@code $assertionsDisabled}) are left out,
 * and so are the classes JMH's annotation processor generates (packages {@code ...jmh_generated}).
 */
public final class StaticState {
    private StaticState() {}

    /** {@code "pkg.Class#field"} to the field's type, for every such field of the classes in {@code classesDir}. */
    public static SortedMap<String, String> fields(Path classesDir) {
        SortedMap<String, String> found = new TreeMap<>();
        for (Class<?> c : classes(classesDir)) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers()) && !f.isSynthetic() && holdsState(f)) {
                    found.put(c.getName() + "#" + f.getName(), f.getType().getTypeName());
                }
            }
        }
        return found;
    }

    /**
     * Fails unless {@link #fields} of {@code classesDir} are exactly the keys of {@code reasons}
     * (each field's reason it is safe), naming the fields to list or to drop from the list.
     */
    public static void assertExactly(Path classesDir, Map<String, String> reasons) {
        SortedMap<String, String> found = fields(classesDir);
        assertThat(found.keySet())
                .as("static mutable fields of %s's main classes: make a new one final and immutable, or thread-safe,"
                        + " say so in its Javadoc and list it with the reason; drop a removed one from the list", classesDir)
                .containsExactlyInAnyOrderElementsOf(reasons.keySet());
        reasons.forEach((field, reason) -> assertThat(reason).as("the reason %s is safe", field).isNotBlank());
    }

    private static boolean holdsState(Field f) {
        if (!Modifier.isFinal(f.getModifiers())) {
            return true;
        }
        Class<?> type = f.getType();
        if (type.isArray() || ThreadLocal.class.isAssignableFrom(type)
                || type.getPackageName().equals("java.util.concurrent.atomic")) {
            return true;
        }
        if (Collection.class.isAssignableFrom(type) || Map.class.isAssignableFrom(type)) {
            return !unmodifiable(value(f));
        }
        return false;
    }

    private static boolean unmodifiable(Object value) {
        if (value == null) {
            return true;
        }
        String name = value.getClass().getName();
        return name.startsWith("java.util.ImmutableCollections$") || name.startsWith("java.util.Collections$Unmodifiable")
                || name.startsWith("java.util.Collections$Empty") || name.startsWith("java.util.Collections$Singleton");
    }

    private static Object value(Field f) {
        try {
            f.setAccessible(true);
            return f.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("cannot read " + f, e);
        }
    }

    private static List<Class<?>> classes(Path classesDir) {
        ClassLoader loader = StaticState.class.getClassLoader();
        try (Stream<Path> files = Files.walk(classesDir)) {
            return files.filter(p -> p.toString().endsWith(".class") && !p.endsWith("module-info.class")
                            && !p.endsWith("package-info.class"))
                    .map(p -> classesDir.relativize(p).toString())
                    .map(s -> s.substring(0, s.length() - ".class".length()).replace('/', '.'))
                    .filter(name -> !name.contains(".jmh_generated."))
                    .sorted()
                    .<Class<?>>map(name -> load(name, loader))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Class<?> load(String name, ClassLoader loader) {
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(name + " is in the classes folder but not on the class path", e);
        }
    }
}
