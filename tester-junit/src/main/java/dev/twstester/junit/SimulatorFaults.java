package dev.twstester.junit;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import dev.twstester.sim.Fault;

/**
 * For twstester's own tests only (package-private): every simulator the {@link TwsExtension} creates
 * for the annotated test method, or for the tests of the annotated class (or of a class nested in
 * it), has these {@link Fault}s, so that a test can prove the live Spark comparison catches a wrong
 * simulator. Simulators created any other way, {@link TestSimulator#of} included, have none.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@interface SimulatorFaults {
    /** The faults to build in. */
    Fault[] value();
}
