package dev.twstester.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import dev.twstester.sim.StateView;
import dev.twstester.sim.TwsSimulator;

/**
 * {@link TestSimulator} offers everything {@link TwsSimulator} offers: each public instance method
 * of {@code TwsSimulator} exists on {@code TestSimulator} with the same parameter types, and returns
 * the same type or the test type listed in {@link #TEST_TYPES}. A method added to
 * {@code TwsSimulator} without its recorded {@code TestSimulator} twin fails here by name.
 */
class TestSimulatorApiTest {
    /** Return types {@code TestSimulator} replaces with a recording test type, and why. */
    private static final Map<Class<?>, Class<?>> TEST_TYPES = Map.of(
            // state writes through the test view are recorded (and refused by the Spark comparison)
            StateView.class, TestStateView.class);

    /**
     * Static methods of {@code TwsSimulator} that have no {@code TestSimulator} twin: a
     * {@code TestSimulator} is made by the extension or {@link TestSimulator#of}, not by a builder.
     */
    private static final List<String> NOT_ON_TEST_SIMULATOR = List.of("builder");

    @Test
    void every_public_method_of_TwsSimulator_is_on_TestSimulator() {
        List<String> missing = new ArrayList<>();
        List<String> wrongReturn = new ArrayList<>();
        for (Method m : publicMethods(TwsSimulator.class)) {
            if (Modifier.isStatic(m.getModifiers())) {
                assertThat(NOT_ON_TEST_SIMULATOR).as("static TwsSimulator.%s: add a TestSimulator twin or list it "
                        + "in NOT_ON_TEST_SIMULATOR with the reason", m.getName()).contains(m.getName());
                continue;
            }
            Method twin;
            try {
                twin = TestSimulator.class.getMethod(m.getName(), m.getParameterTypes());
            } catch (NoSuchMethodException e) {
                missing.add(signature(m));
                continue;
            }
            Class<?> expected = TEST_TYPES.getOrDefault(m.getReturnType(), m.getReturnType());
            boolean sameGeneric = TEST_TYPES.containsKey(m.getReturnType())
                    || twin.getGenericReturnType().getTypeName().equals(m.getGenericReturnType().getTypeName());
            if (twin.getReturnType() != expected || !sameGeneric
                    || !Arrays.equals(names(twin.getGenericParameterTypes()), names(m.getGenericParameterTypes()))) {
                wrongReturn.add(signature(m) + " is " + signature(twin) + " on TestSimulator");
            }
        }
        assertThat(missing).as("TwsSimulator methods missing on TestSimulator (add each, recorded through its "
                + "Recorder like the others)").isEmpty();
        assertThat(wrongReturn).as("TestSimulator methods whose types differ from TwsSimulator's (list a test "
                + "return type in TEST_TYPES)").isEmpty();
    }

    @Test
    void the_check_sees_the_methods_it_compares() {
        List<String> names = publicMethods(TwsSimulator.class).stream().map(Method::getName).distinct().sorted().toList();
        assertThat(names).contains("runBatch", "addData", "advanceWatermarkTo", "restore", "state", "encoderPaths",
                "builder");
        assertThat(publicMethods(TwsSimulator.class).stream().filter(m -> m.getName().equals("addData")).count())
                .as("addData(List) and addData(I...)").isEqualTo(2);
    }

    /** Public methods declared by {@code type} itself (not Object's), bridges and synthetics excluded. */
    private static List<Method> publicMethods(Class<?> type) {
        return Arrays.stream(type.getDeclaredMethods())
                .filter(m -> Modifier.isPublic(m.getModifiers()) && !m.isSynthetic() && !m.isBridge())
                .sorted((a, b) -> signature(a).compareTo(signature(b)))
                .toList();
    }

    private static String[] names(Type[] types) {
        return Arrays.stream(types).map(Type::getTypeName).toArray(String[]::new);
    }

    private static String signature(Method m) {
        return m.getGenericReturnType().getTypeName().replace("dev.twstester.", "") + " " + m.getName()
                + Arrays.stream(m.getGenericParameterTypes()).map(t -> t.getTypeName().replace("dev.twstester.", ""))
                        .collect(Collectors.joining(", ", "(", ")"));
    }
}
