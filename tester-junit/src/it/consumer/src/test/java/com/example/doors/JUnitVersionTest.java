package com.example.doors;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;

/** The build runs these tests once per JUnit version; this checks each run got the JUnit it asked for. */
class JUnitVersionTest {
    @Test
    void the_junit_running_is_the_one_the_build_asked_for() throws ClassNotFoundException {
        // -Djunit.version=... of invoker.properties: surefire passes Maven's user properties to the test JVM
        String expected = System.getProperty("junit.version");
        assertThat(expected).as("the build's -Djunit.version").isNotBlank();
        String api = ExtensionContext.class.getPackage().getImplementationVersion();
        String engine = Class.forName("org.junit.jupiter.engine.JupiterTestEngine").getPackage()
                .getImplementationVersion();
        System.out.println("JUnit Jupiter running: api " + api + ", engine " + engine);
        assertThat(api).as("junit-jupiter-api").isEqualTo(expected);
        assertThat(engine).as("junit-jupiter-engine").isEqualTo(expected);
    }
}
