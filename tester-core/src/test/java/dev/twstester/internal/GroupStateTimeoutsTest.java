package dev.twstester.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.apache.spark.api.java.Optional;
import org.apache.spark.sql.streaming.GroupStateTimeout;
import org.apache.spark.sql.streaming.TestGroupState;
import org.junit.jupiter.api.Test;

/**
 * {@link GroupStateTimeouts}: the value is Spark's own, a call's timeout reads as Spark's
 * {@code GroupState} holds it, and it is the one place the value is written down in tester-core.
 */
class GroupStateTimeoutsTest {

    @Test
    void no_timestamp_is_sparks_group_state_impl_no_timestamp() throws ReflectiveOperationException {
        // GroupStateImpl's package moved in Spark 4.1: read whichever this Spark has
        Class<?> companion;
        try {
            companion = Class.forName("org.apache.spark.sql.execution.streaming.operators.stateful."
                    + "flatmapgroupswithstate.GroupStateImpl$");
        } catch (ClassNotFoundException before41) {
            companion = Class.forName("org.apache.spark.sql.execution.streaming.GroupStateImpl$");
        }
        Object module = companion.getField("MODULE$").get(null);
        assertThat(companion.getMethod("NO_TIMESTAMP").invoke(module)).isEqualTo(GroupStateTimeouts.NO_TIMESTAMP);
    }

    @Test
    void timeout_of_a_state_is_the_timeout_set_or_no_timestamp() {
        TestGroupState<String> none = TestGroupState.create(Optional.of("s"), GroupStateTimeout.NoTimeout(), 5000L,
                Optional.empty(), false);
        TestGroupState<String> unset = TestGroupState.create(Optional.empty(),
                GroupStateTimeout.ProcessingTimeTimeout(), 5000L, Optional.empty(), false);
        TestGroupState<String> processing = TestGroupState.create(Optional.empty(),
                GroupStateTimeout.ProcessingTimeTimeout(), 5000L, Optional.empty(), false);
        processing.setTimeoutDuration(1000L);
        TestGroupState<String> event = TestGroupState.create(Optional.empty(), GroupStateTimeout.EventTimeTimeout(),
                5000L, Optional.of(100L), false);
        event.setTimeoutTimestamp(9000L);

        assertThat(GroupStateTimeouts.timeoutOf(none)).isEqualTo(-1L);
        assertThat(GroupStateTimeouts.timeoutOf(unset)).isEqualTo(-1L);
        assertThat(GroupStateTimeouts.timeoutOf(processing)).isEqualTo(6000L);
        assertThat(GroupStateTimeouts.timeoutOf(event)).isEqualTo(9000L);
    }

    /** The simulator's legacy operator, the live wrapper and the checkpoint reader used to keep a copy each. */
    @Test
    void no_other_main_class_of_tester_core_declares_a_no_timeout_constant() throws IOException {
        Pattern constant = Pattern.compile("static final long \\w*(TIMESTAMP|TIMEOUT)\\w* = -1L?;");
        Path root = Path.of("src/main/java"); // Maven runs tests in the module's folder
        try (Stream<Path> files = Files.walk(root)) {
            List<String> copies = files.filter(f -> f.toString().endsWith(".java"))
                    .filter(f -> !f.getFileName().toString().equals("GroupStateTimeouts.java"))
                    .filter(f -> constant.matcher(read(f)).find())
                    .map(f -> root.relativize(f).toString()).toList();
            assertThat(copies).as("use GroupStateTimeouts.NO_TIMESTAMP for a legacy key's 'no timeout'").isEmpty();
        }
        assertThat(constant.matcher(read(root.resolve("dev/twstester/internal/GroupStateTimeouts.java"))).find())
                .isTrue();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
