package dev.twstester.junit;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.twstester.testing.StaticState;

/**
 * tester-junit's static mutable fields, each with why tests running in parallel can share it. A new one
 * fails here: make it final and immutable, or thread-safe, say so in its Javadoc, and list it.
 */
class StaticStateTest {
    @Test
    void every_static_mutable_field_is_listed_with_why_it_is_safe() {
        StaticState.assertExactly(Path.of("target/classes"), Map.of(
                "dev.twstester.junit.DifferentialProperty#POOLS",
                "a concurrent map of thread pools; properties of tests running at once share their live tries' threads",
                "dev.twstester.junit.internal.RowEquality#WARNED",
                "a concurrent set: strict mode warns once per JVM about each row class without equals()",
                "dev.twstester.junit.internal.Session#CURRENT",
                "a thread-local: each thread sees the session of the test it runs only"));
    }
}
