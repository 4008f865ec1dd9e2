package dev.twstester.junit.internal;

import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;

import dev.twstester.TwsQuery;

/**
 * Internal, not API: may change in any release.
 *
 * <p>Finds and reads the {@code TwsQuery} a simulator is built from: a field of type
 * {@code TwsQuery} or a method without parameters returning one, in the test class, its
 * superclasses or its enclosing classes, or {@code Class#member} of another class. Every problem
 * is an {@link ExtensionConfigurationException} saying what to change.
 */
public final class QuerySources {
    private QuerySources() {}

    /** A query source found: the member, the class it was looked up in, and its name as shown. */
    public record Source(Member member, Class<?> in, String display) {
        public boolean isStatic() {
            return Modifier.isStatic(member.getModifiers());
        }
    }

    /**
     * The source named {@code name} (empty: the only one) for {@code target} (e.g. {@code field 'sim'}),
     * looked up in {@code classes}: the test class first, then its enclosing classes.
     */
    public static Source find(String name, List<Class<?>> classes, String target) {
        if (name.contains("#")) {
            return external(name, classes.get(0), target);
        }
        for (Class<?> c : classes) {
            List<Member> candidates = candidates(c);
            if (name.isEmpty()) {
                if (candidates.size() == 1) {
                    return source(candidates.get(0), c);
                }
                if (candidates.size() > 1) {
                    throw new ExtensionConfigurationException(c.getSimpleName() + " declares several queries "
                            + names(candidates) + "; say which one " + target + " runs, e.g. @Simulator(query = \""
                            + candidates.get(0).getName() + "\")");
                }
                continue;
            }
            String plain = name.endsWith("()") ? name.substring(0, name.length() - 2) : name;
            Optional<Member> named = members(c).stream().filter(m -> m.getName().equals(plain)).findFirst();
            if (named.isPresent()) {
                requireQuery(named.get(), c, target);
                return source(named.get(), c);
            }
        }
        Class<?> testClass = classes.get(0);
        if (name.isEmpty()) {
            throw new ExtensionConfigurationException("no TwsQuery for " + target + ": declare one in "
                    + testClass.getSimpleName() + ", e.g. static TwsQuery<K, I, O> query() { return ...; }, "
                    + "or name one with @Simulator(query = \"Class#method\")");
        }
        List<Member> all = new ArrayList<>();
        classes.forEach(c -> all.addAll(candidates(c)));
        throw new ExtensionConfigurationException("no field or no-argument method '" + name + "' in "
                + testClass.getSimpleName() + " for " + target + "; queries declared: " + names(all));
    }

    /** Reads the source's query; {@code instances} gives the test instance of a class, if any. */
    public static TwsQuery<?, ?, ?> read(Source source, Function<Class<?>, Optional<Object>> instances, String target) {
        Object instance = null;
        if (!source.isStatic()) {
            instance = instances.apply(source.member().getDeclaringClass()).orElseThrow(() ->
                    new ExtensionConfigurationException(target + " is created before any test instance exists, but "
                            + "its query source " + source.display() + " is not static; make " + source.display()
                            + " static"));
        }
        Object value;
        try {
            value = source.member() instanceof Method m ? ReflectionSupport.invokeMethod(m, instance)
                    : ReflectionSupport.tryToReadFieldValue((Field) source.member(), instance).get();
        } catch (Throwable t) {
            throw new ExtensionConfigurationException("query source " + source.display() + " for " + target + " threw "
                    + Timelines.firstLine(t) + "; fix the query definition", t);
        }
        if (value == null) {
            throw new ExtensionConfigurationException("query source " + source.display() + " for " + target
                    + " is null; give it a TwsQuery built with TwsQuery.builder(...).build()");
        }
        return (TwsQuery<?, ?, ?>) value;
    }

    private static Source external(String name, Class<?> testClass, String target) {
        String className = name.substring(0, name.indexOf('#'));
        String member = name.substring(name.indexOf('#') + 1).replace("()", "");
        Class<?> c = ReflectionSupport.tryToLoadClass(className).toOptional().orElseThrow(() ->
                new ExtensionConfigurationException("query source \"" + name + "\" for " + target + ": no class "
                        + className + "; give the fully qualified class name, e.g. \"com.acme.Queries#cart\""));
        Member found = members(c).stream().filter(m -> m.getName().equals(member)).findFirst().orElseThrow(() ->
                new ExtensionConfigurationException("query source \"" + name + "\" for " + target + ": "
                        + c.getSimpleName() + " has no field or no-argument method '" + member + "'"));
        requireQuery(found, c, target);
        if (!Modifier.isStatic(found.getModifiers())) {
            throw new ExtensionConfigurationException("query source \"" + name + "\" for " + target
                    + " is not static; a query source in another class must be a static field or method");
        }
        return source(found, c);
    }

    private static void requireQuery(Member m, Class<?> c, String target) {
        Class<?> type = m instanceof Method method ? method.getReturnType() : ((Field) m).getType();
        if (!TwsQuery.class.isAssignableFrom(type)) {
            throw new ExtensionConfigurationException(display(m, c) + " is a " + type.getSimpleName()
                    + ", not a TwsQuery; " + target + " needs a TwsQuery<K, I, O>");
        }
    }

    private static Source source(Member m, Class<?> c) {
        return new Source(m, c, display(m, c));
    }

    private static String display(Member m, Class<?> c) {
        return c.getSimpleName() + "." + m.getName() + (m instanceof Method ? "()" : "");
    }

    /** Fields and no-argument methods of {@code c} and its superclasses. */
    private static List<Member> members(Class<?> c) {
        List<Member> out = new ArrayList<>(ReflectionSupport.findFields(c, f -> !f.isSynthetic(),
                HierarchyTraversalMode.TOP_DOWN));
        out.addAll(ReflectionSupport.findMethods(c, m -> m.getParameterCount() == 0 && !m.isSynthetic()
                && !m.isBridge() && m.getDeclaringClass() != Object.class, HierarchyTraversalMode.TOP_DOWN));
        return out;
    }

    /** Members of type TwsQuery. */
    private static List<Member> candidates(Class<?> c) {
        return members(c).stream().filter(m -> TwsQuery.class.isAssignableFrom(
                m instanceof Method method ? method.getReturnType() : ((Field) m).getType())).toList();
    }

    private static String names(List<Member> members) {
        return members.stream().map(m -> m.getName() + (m instanceof Method ? "()" : "")).toList().toString();
    }
}
