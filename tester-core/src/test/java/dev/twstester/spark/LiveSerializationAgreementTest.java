package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.NotSerializableException;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Stream;

import org.apache.spark.SparkException;
import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.StreamingQueryException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.NonSerializableProcessors;
import dev.twstester.sim.TwsSimulator;

/**
 * Spec 6, "Task not serializable", on live Spark: a processor Spark cannot serialize fails the
 * first batch on both engines with a {@code SparkException} without error class, caused by a
 * {@code NotSerializableException} whose serialization stack names the same field. Spark's stack
 * goes on past the processor (the live runner's wrapper, {@code TransformWithStateExec}, the task
 * closure); the simulator's stops at the processor and must be the start of Spark's.
 */
@Tag("live")
class LiveSerializationAgreementTest {

    static Stream<Arguments> shapes() {
        return Stream.of(
                Arguments.of("direct", (Supplier<?>) NonSerializableProcessors.DirectField::new, "client"),
                Arguments.of("nested", (Supplier<?>) NonSerializableProcessors.NestedField::new, "holder"),
                Arguments.of("lambda", (Supplier<?>) NonSerializableProcessors.LambdaField::new, "format"),
                Arguments.of("capturing lambda", (Supplier<?>) NonSerializableProcessors.CapturingLambdaField::new, "format"),
                Arguments.of("set in init", (Supplier<?>) NonSerializableProcessors.SetInInit::new, "client"),
                Arguments.of("list", (Supplier<?>) NonSerializableProcessors.ListField::new, "items"),
                Arguments.of("array", (Supplier<?>) NonSerializableProcessors.ArrayField::new, "clients"));
    }

    @ParameterizedTest(name = "{0}: field {2}")
    @MethodSource("shapes")
    @SuppressWarnings("unchecked")
    void both_engines_fail_the_first_batch_with_task_not_serializable_naming_the_field(String shape,
            Supplier<?> processor, String field) {
        TwsQuery<String, String, String> query = TwsQuery
                .builder((Supplier<StatefulProcessor<String, String, String>>) processor)
                .keyBy(s -> s, Encoders.STRING()).input(Encoders.STRING()).output(Encoders.STRING()).build();
        Scenario<String> scenario = Scenario.<String>builder().batch(List.of("k1")).batch(List.of("k2")).build();
        TwsSimulator<String, String, String> simulator = new TwsSimulator<>(query);

        Throwable sim = catchThrowable(() -> simulator.run(scenario));
        Throwable live = catchThrowable(() -> LiveRunner.of(query).run(scenario));

        assertThat(live).isInstanceOf(LiveRunException.class).hasMessageStartingWith("live Spark run failed at batch 0: ");
        assertThat(((LiveRunException) live).completed()).isEmpty();
        assertThat(live.getCause()).isInstanceOf(StreamingQueryException.class);
        assertThat(((SparkThrowable) live.getCause()).getCondition()).isEqualTo("STREAM_FAILED");
        assertThat(simulator.history().batches()).isEmpty();

        Throwable liveTask = live.getCause().getCause();
        assertThat(sim).isExactlyInstanceOf(liveTask.getClass()).isExactlyInstanceOf(SparkException.class);
        assertThat(((SparkThrowable) sim).getCondition()).isEqualTo(((SparkThrowable) liveTask).getCondition()).isNull();
        assertThat(firstLine(sim.getMessage())).isEqualTo(liveTask.getMessage()).isEqualTo("Task not serializable");

        assertThat(sim.getCause()).isExactlyInstanceOf(NotSerializableException.class);
        assertThat(liveTask.getCause()).isExactlyInstanceOf(NotSerializableException.class);
        List<String> simStack = stack(sim.getCause().getMessage());
        List<String> liveStack = stack(liveTask.getCause().getMessage());
        assertThat(simStack).as("the simulator's stack").isNotEmpty();
        assertThat(simStack.get(simStack.size() - 1)).startsWith("\t- object (class " + query.newProcessor().getClass().getName());
        assertThat(liveStack).as("Spark's stack, from the start").startsWith(simStack.toArray(String[]::new));
        assertThat(firstLine(withoutIds(sim.getCause().getMessage())))
                .isEqualTo(firstLine(withoutIds(liveTask.getCause().getMessage())));
        String fieldLine = "name: " + field + ", type: ";
        assertThat(simStack.get(simStack.size() - 2)).contains(fieldLine);
        assertThat(liveStack).anyMatch(line -> line.contains(fieldLine));
        assertThat(sim.getMessage()).contains("Hint: ").contains("Mark field '" + field + "' of ");
    }

    private static String firstLine(String message) {
        return message.lines().findFirst().orElse("");
    }

    /** The "\t- ..." lines after "Serialization stack:", lambda numbers and identity hashes removed. */
    private static List<String> stack(String message) {
        List<String> lines = Arrays.asList(withoutIds(message).split("\n"));
        return lines.subList(lines.indexOf("Serialization stack:") + 1, lines.size()).stream()
                .takeWhile(l -> l.startsWith("\t- ")).toList();
    }

    private static String withoutIds(String s) {
        return s.replaceAll("\\$\\$Lambda\\$\\d+/0x[0-9a-f]+", "\\$\\$Lambda").replaceAll("@[0-9a-f]+\\b", "@");
    }
}
