package dev.twstester.cli;

import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.twstester.testing.StaticState;

/**
 * cli's static mutable fields, each with why tests running in parallel can share it. A new one
 * fails here: make it final and immutable, or thread-safe, say so in its Javadoc, and list it.
 */
class StaticStateTest {
    @Test
    void every_static_mutable_field_is_listed_with_why_it_is_safe() {
        StaticState.assertExactly(Path.of("target/classes"), Map.of());
    }
}
