package dev.twstester.junit.internal;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.spark.sql.Encoder;

import dev.twstester.TwsQuery;

/**
 * Internal, not API: may change in any release.
 *
 * <p>Which row classes have their own {@code equals()}. The simulator hands out rows made through
 * the encoder, as Spark does, so a row is never the object the test made: without {@code equals()}
 * only the assertions of {@code TwsAssertions} (which compare such rows by their encoded value)
 * see two equal rows as equal, a plain {@code assertEquals} or {@code List.contains} does not.
 * Strict mode warns about each such class once per JVM.
 */
public final class RowEquality {
    /** The classes warned about in this JVM: a concurrent set, so tests running at once warn once between them. */
    private static final Set<Class<?>> WARNED = ConcurrentHashMap.newKeySet();

    private RowEquality() {}

    /** Whether {@code type} declares {@code equals(Object)} or inherits one other than {@code Object}'s (arrays do not). */
    public static boolean hasOwnEquals(Class<?> type) {
        if (type.isArray()) {
            return false;
        }
        try {
            return type.getMethod("equals", Object.class).getDeclaringClass() != Object.class;
        } catch (NoSuchMethodException e) {
            return true;
        }
    }

    /**
     * A warning for each input and output row class of {@code query}'s operators without
     * {@code equals()} not warned about before in this JVM.
     */
    public static List<String> newWarnings(TwsQuery<?, ?, ?> query) {
        Set<Class<?>> classes = new LinkedHashSet<>();
        for (TwsQuery<?, ?, ?> op : query.operators()) {
            classes.add(type(op.inputEncoder()));
            classes.add(type(op.outputEncoder()));
        }
        List<String> out = new ArrayList<>();
        for (Class<?> c : classes) {
            if (!c.isPrimitive() && !hasOwnEquals(c) && WARNED.add(c)) {
                out.add("twstester: warning: " + c.getName() + " has no equals(); TwsAssertions compare its rows by "
                        + "their encoded value, as Spark does, but assertEquals, List.contains and AssertJ assertions "
                        + "not made through TwsAssertions compare identity, and the simulator's rows are copies made "
                        + "through the encoder; add equals() and hashCode() to " + c.getSimpleName());
            }
        }
        return out;
    }

    private static Class<?> type(Encoder<?> encoder) {
        return encoder.clsTag().runtimeClass();
    }
}
