package dev.twstester.cli;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import dev.twstester.TwsQuery;

/**
 * Finds the {@link TwsQuery} that {@code --query} names, on the tool's classpath plus the
 * {@code --classpath} entries: {@code com.acme.Carts} (its public static {@code query()}, or the
 * class itself when it implements {@code Supplier<TwsQuery>}) or {@code com.acme.Carts#storyQuery}.
 */
final class QueryLoader {
    static final String DEFAULT_METHOD = "query";

    private final List<Path> extraEntries;
    private final ClassLoader loader;

    QueryLoader(List<Path> extraEntries) {
        this.extraEntries = List.copyOf(extraEntries);
        for (Path p : extraEntries) {
            if (!Files.exists(p)) {
                throw CliException.usage("--classpath " + p + ": no such file or folder");
            }
        }
        ClassLoader parent = Thread.currentThread().getContextClassLoader();
        if (parent == null) {
            parent = QueryLoader.class.getClassLoader();
        }
        List<Path> launcherEntries = launcherClasspath().stream().map(Path::of).filter(Files::exists).toList();
        if (!launcherEntries.isEmpty()) {
            parent = new URLClassLoader("twstester-launcher-classpath", urls(launcherEntries), parent);
        }
        this.loader = extraEntries.isEmpty() ? parent : new URLClassLoader("twstester-classpath", urls(extraEntries), parent);
    }

    /** The loader that sees the query's classes: set it as context class loader while Spark runs them. */
    ClassLoader classLoader() {
        return loader;
    }

    /** The query {@code spec} names, and a display name {@code class#method}. */
    Loaded load(String spec) {
        int hash = spec.indexOf('#');
        String className = hash < 0 ? spec : spec.substring(0, hash);
        String methodName = hash < 0 ? null : spec.substring(hash + 1);
        if (className.isBlank() || (methodName != null && methodName.isBlank())) {
            throw CliException.usage("--query " + spec + ": write a class name, optionally with #method, "
                    + "like com.acme.Carts or com.acme.Carts#storyQuery");
        }
        Class<?> type = loadClass(className);
        if (methodName == null) {
            Method m = staticQueryMethod(type, DEFAULT_METHOD);
            if (m != null) {
                return new Loaded(type.getName() + "#" + DEFAULT_METHOD, invoke(type, m));
            }
            if (Supplier.class.isAssignableFrom(type)) {
                return new Loaded(type.getName(), fromSupplier(type));
            }
            throw CliException.usage("--query " + spec + ": " + type.getName() + " has no public static "
                    + DEFAULT_METHOD + "() returning TwsQuery and is not a Supplier<TwsQuery>"
                    + candidates(type));
        }
        Method m = staticQueryMethod(type, methodName);
        if (m == null) {
            throw CliException.usage("--query " + spec + ": " + type.getName() + " has no public static "
                    + methodName + "() returning TwsQuery" + candidates(type));
        }
        return new Loaded(type.getName() + "#" + methodName, invoke(type, m));
    }

    /** A loaded query and the name it was given by. */
    record Loaded(String name, TwsQuery<?, ?, ?> query) {}

    private Class<?> loadClass(String className) {
        try {
            return Class.forName(className, true, loader);
        } catch (ClassNotFoundException | NoClassDefFoundError e) {
            throw CliException.usage("--query: unknown class " + className + didYouMean(className)
                    + "; searched " + searched() + "; add its jar or classes folder with --classpath", e);
        } catch (LinkageError e) {
            throw CliException.usage("--query: class " + className + " cannot be loaded: " + e, e);
        }
    }

    private static Method staticQueryMethod(Class<?> type, String name) {
        try {
            Method m = type.getMethod(name);
            if (Modifier.isStatic(m.getModifiers()) && TwsQuery.class.isAssignableFrom(m.getReturnType())) {
                return m;
            }
            return null;
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    private static String candidates(Class<?> type) {
        List<String> found = new ArrayList<>();
        for (Method m : type.getMethods()) {
            if (Modifier.isStatic(m.getModifiers()) && m.getParameterCount() == 0
                    && TwsQuery.class.isAssignableFrom(m.getReturnType())) {
                found.add(type.getName() + "#" + m.getName());
            }
        }
        found.sort(null);
        return found.isEmpty() ? "" : "; it has " + String.join(", ", found);
    }

    private static TwsQuery<?, ?, ?> invoke(Class<?> type, Method m) {
        try {
            Object q = m.invoke(null);
            if (q == null) {
                throw CliException.usage("--query: " + type.getName() + "#" + m.getName() + "() returned null");
            }
            return (TwsQuery<?, ?, ?>) q;
        } catch (IllegalAccessException e) {
            throw CliException.usage("--query: " + type.getName() + "#" + m.getName()
                    + "() is not accessible; make the class and method public", e);
        } catch (InvocationTargetException e) {
            throw CliException.usage("--query: " + type.getName() + "#" + m.getName() + "() threw "
                    + e.getCause(), e.getCause());
        }
    }

    private static TwsQuery<?, ?, ?> fromSupplier(Class<?> type) {
        Object supplier;
        try {
            supplier = type.getConstructor().newInstance();
        } catch (NoSuchMethodException | IllegalAccessException | InstantiationException e) {
            throw CliException.usage("--query: " + type.getName() + " is a Supplier but has no public no-argument "
                    + "constructor; add one or give a static method with --query " + type.getName() + "#method", e);
        } catch (InvocationTargetException e) {
            throw CliException.usage("--query: new " + type.getSimpleName() + "() threw " + e.getCause(), e.getCause());
        }
        Object q = ((Supplier<?>) supplier).get();
        if (!(q instanceof TwsQuery<?, ?, ?> query)) {
            throw CliException.usage("--query: " + type.getName() + ".get() returned "
                    + (q == null ? "null" : "a " + q.getClass().getName()) + ", not a TwsQuery");
        }
        return query;
    }

    /** The classpath searched, for an unknown class: --classpath in full, the tool's folders and a jar count. */
    private String searched() {
        List<String> folders = new ArrayList<>();
        int jars = 0;
        for (String entry : toolClasspath()) {
            if (new File(entry).isDirectory()) {
                folders.add(entry);
            } else {
                jars++;
            }
        }
        return "--classpath " + (extraEntries.isEmpty() ? "(none)" : extraEntries.toString())
                + " and the tool's classpath " + folders + (jars == 0 ? "" : " plus " + jars + " jar" + (jars == 1 ? "" : "s"));
    }

    /** The JVM's classpath, then the launcher's class folders ({@link #LAUNCHER_CLASSPATH}). */
    private static List<String> toolClasspath() {
        List<String> entries = new ArrayList<>(split(System.getProperty("java.class.path", "")));
        entries.addAll(launcherClasspath());
        return entries;
    }

    /**
     * Class folders the {@code ./twstester} launcher adds (the samples' classes), as a system property
     * rather than on the JVM's classpath: a JVM that archives classes for AppCDS refuses class folders
     * on its classpath. They are searched after the JVM's classpath and before {@code --classpath}.
     */
    static final String LAUNCHER_CLASSPATH = "twstester.launcher.classpath";

    private static List<String> launcherClasspath() {
        return split(System.getProperty(LAUNCHER_CLASSPATH, ""));
    }

    private static List<String> split(String classpath) {
        return Arrays.stream(classpath.split(File.pathSeparator)).filter(s -> !s.isBlank()).toList();
    }

    /** " (did you mean a.b.Name?)" for classes of the same simple name in the searched folders and --classpath jars. */
    private String didYouMean(String className) {
        String simple = className.substring(className.lastIndexOf('.') + 1);
        TreeSet<String> found = new TreeSet<>();
        List<Path> roots = new ArrayList<>(extraEntries);
        toolClasspath().stream().map(Path::of).filter(Files::isDirectory).forEach(roots::add);
        for (Path root : roots) {
            try {
                if (Files.isDirectory(root)) {
                    try (Stream<Path> files = Files.walk(root, 30)) {
                        files.filter(p -> p.getFileName().toString().equals(simple + ".class"))
                                .forEach(p -> found.add(root.relativize(p).toString()));
                    }
                } else if (root.toString().endsWith(".jar")) {
                    try (JarFile jar = new JarFile(root.toFile())) {
                        for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
                            String name = e.nextElement().getName();
                            if (name.endsWith("/" + simple + ".class") || name.equals(simple + ".class")) {
                                found.add(name);
                            }
                        }
                    }
                }
            } catch (IOException | UncheckedIOException e) {
                // a folder or jar we cannot read gives no suggestion
            }
        }
        List<String> names = found.stream()
                .map(p -> p.substring(0, p.length() - ".class".length()).replace(File.separatorChar, '.').replace('/', '.'))
                .filter(n -> !n.equals(className))
                .limit(3)
                .toList();
        return names.isEmpty() ? "" : " (did you mean " + String.join(" or ", names) + "?)";
    }

    private static URL[] urls(List<Path> entries) {
        URL[] urls = new URL[entries.size()];
        for (int i = 0; i < urls.length; i++) {
            try {
                urls[i] = entries.get(i).toAbsolutePath().toUri().toURL();
            } catch (MalformedURLException e) {
                throw CliException.usage("--classpath " + entries.get(i) + ": not a usable path (" + e.getMessage() + ")");
            }
        }
        return urls;
    }
}
