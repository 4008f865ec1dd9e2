package dev.twstester.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import dev.twstester.sim.TwsSimulator;

/**
 * {@link TestSimulator} repeats nothing of {@link TwsSimulator}: it is one, and declares only what a
 * test needs besides (an overload of a simulator method would be a second way to make the same call).
 */
class TestSimulatorShapeTest {
    @Test
    void it_declares_no_public_method_named_as_one_of_the_simulators() {
        Set<String> simulator = names(TwsSimulator.class.getMethods());
        Set<String> declared = names(TestSimulator.class.getDeclaredMethods());

        assertThat(TwsSimulator.class).isAssignableFrom(TestSimulator.class);
        assertThat(declared).doesNotContainAnyElementsOf(simulator)
                .containsExactlyInAnyOrder("of", "output", "name", "timeline", "saveTrace", "close", "toString");
    }

    private static Set<String> names(Method[] methods) {
        return Arrays.stream(methods).filter(m -> Modifier.isPublic(m.getModifiers()) && !m.isSynthetic())
                .filter(m -> m.getDeclaringClass() != Object.class).map(Method::getName).collect(Collectors.toSet());
    }
}
