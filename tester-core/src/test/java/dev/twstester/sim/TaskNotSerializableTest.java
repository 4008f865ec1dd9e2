package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.NotSerializableException;
import java.util.List;
import java.util.function.Supplier;

import org.apache.spark.SparkException;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.junit.jupiter.api.Test;

import dev.twstester.TwsQuery;

/**
 * Spec 6: a processor Spark cannot serialize fails the run's first batch with "Task not
 * serializable" and the serialization stack of Spark's SerializationDebugger (the live side is
 * {@code dev.twstester.spark.LiveSerializationAgreementTest}).
 */
class TaskNotSerializableTest {
    private static final String P = "dev.twstester.sim.NonSerializableProcessors$";
    private static final String HINT = "Hint: Spark Java-serializes the processor into every task, after the driver ran "
            + "init() and close() on it. ";

    private static TwsQuery<String, String, String> query(Supplier<StatefulProcessor<String, String, String>> processor) {
        return TwsQuery.builder(processor).keyBy(s -> s, Encoders.STRING())
                .input(Encoders.STRING()).output(Encoders.STRING()).build();
    }

    private static Throwable firstBatch(Supplier<StatefulProcessor<String, String, String>> processor) {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(query(processor));
        return catchThrowable(() -> sim.runBatch("k1"));
    }

    /** Lambda classes are numbered per JVM run: {@code X$$Lambda$12/0x0000...@1f2e} becomes {@code X$$Lambda}. */
    static String withoutLambdaIds(String s) {
        return s.replaceAll("\\$\\$Lambda\\$\\d+/0x[0-9a-f]+(@[0-9a-f]+)?", "\\$\\$Lambda");
    }

    @Test
    void a_field_holding_a_non_serializable_object_is_named_with_spark_stack_and_a_hint() {
        Throwable thrown = firstBatch(NonSerializableProcessors.DirectField::new);

        assertThat(thrown).isExactlyInstanceOf(SparkException.class).hasMessage("Task not serializable\n"
                + "Serialization stack:\n"
                + "\t- object not serializable (class: " + P + "Client, value: Client)\n"
                + "\t- field (class: " + P + "DirectField, name: client, type: class " + P + "Client)\n"
                + "\t- object (class " + P + "DirectField, DirectField)\n"
                + HINT + "Mark field 'client' of " + P + "DirectField transient and create its value in init(), or make "
                + P + "Client Serializable.");
        assertThat(((SparkException) thrown).getCondition()).isNull();
        assertThat(thrown.getCause()).isExactlyInstanceOf(NotSerializableException.class).hasMessage(P + "Client\n"
                + "Serialization stack:\n"
                + "\t- object not serializable (class: " + P + "Client, value: Client)\n"
                + "\t- field (class: " + P + "DirectField, name: client, type: class " + P + "Client)\n"
                + "\t- object (class " + P + "DirectField, DirectField)");
    }

    @Test
    void a_non_serializable_object_inside_a_serializable_field_shows_the_path_and_names_the_processor_field() {
        Throwable thrown = firstBatch(NonSerializableProcessors.NestedField::new);

        assertThat(thrown).isExactlyInstanceOf(SparkException.class).hasMessage("Task not serializable\n"
                + "Serialization stack:\n"
                + "\t- object not serializable (class: " + P + "Client, value: Client)\n"
                + "\t- field (class: " + P + "Holder, name: client, type: class " + P + "Client)\n"
                + "\t- object (class " + P + "Holder, Holder)\n"
                + "\t- field (class: " + P + "NestedField, name: holder, type: class " + P + "Holder)\n"
                + "\t- object (class " + P + "NestedField, NestedField)\n"
                + HINT + "Mark field 'holder' of " + P + "NestedField transient and create its value in init(), or make "
                + P + "Client Serializable.");
    }

    @Test
    void a_lambda_of_a_plain_functional_interface_is_the_object_not_serializable() {
        Throwable thrown = firstBatch(NonSerializableProcessors.LambdaField::new);

        assertThat(withoutLambdaIds(thrown.getMessage())).isEqualTo("Task not serializable\n"
                + "Serialization stack:\n"
                + "\t- object not serializable (class: " + P + "LambdaField$$Lambda, value: " + P + "LambdaField$$Lambda)\n"
                + "\t- field (class: " + P + "LambdaField, name: format, type: interface java.util.function.Function)\n"
                + "\t- object (class " + P + "LambdaField, LambdaField)\n"
                + HINT + "Mark field 'format' of " + P + "LambdaField transient and create its value in init(), or make "
                + "the lambda Serializable (a functional interface type that extends Serializable) capturing only "
                + "serializable values.");
    }

    @Test
    void a_serializable_lambda_capturing_a_non_serializable_object_goes_through_its_serialized_form() {
        Throwable thrown = firstBatch(NonSerializableProcessors.CapturingLambdaField::new);

        String lambda = P + "CapturingLambdaField$$Lambda";
        assertThat(withoutLambdaIds(thrown.getMessage())).isEqualTo("Task not serializable\n"
                + "Serialization stack:\n"
                + "\t- object not serializable (class: " + P + "Client, value: Client)\n"
                + "\t- element of array (index: 0)\n"
                + "\t- array (class [Ljava.lang.Object;, size 1)\n"
                + "\t- field (class: java.lang.invoke.SerializedLambda, name: capturedArgs, type: class [Ljava.lang.Object;)\n"
                + "\t- object (class java.lang.invoke.SerializedLambda, SerializedLambda[capturingClass=class "
                + P + "CapturingLambdaField, functionalInterfaceMethod=dev/twstester/sim/NonSerializableProcessors"
                + "$SerializableFunction.apply:(Ljava/lang/Object;)Ljava/lang/Object;, implementation=invokeStatic "
                + "dev/twstester/sim/NonSerializableProcessors$CapturingLambdaField.lambda$capture$3f4a7653$1:"
                + "(Ldev/twstester/sim/NonSerializableProcessors$Client;Ljava/lang/String;)Ljava/lang/String;, "
                + "instantiatedMethodType=(Ljava/lang/String;)Ljava/lang/String;, numCaptured=1])\n"
                + "\t- writeReplace data (class: java.lang.invoke.SerializedLambda)\n"
                + "\t- object (class " + lambda + ", " + lambda + ")\n"
                + "\t- field (class: " + P + "CapturingLambdaField, name: format, type: interface " + P
                + "SerializableFunction)\n"
                + "\t- object (class " + P + "CapturingLambdaField, CapturingLambdaField)\n"
                + HINT + "Mark field 'format' of " + P + "CapturingLambdaField transient and create its value in init(), "
                + "or make " + P + "Client Serializable.");
    }

    @Test
    void a_list_with_its_own_writeObject_is_entered_through_the_objects_it_writes() {
        Throwable thrown = firstBatch(NonSerializableProcessors.ListField::new);

        assertThat(thrown).hasMessageContaining("Serialization stack:\n"
                + "\t- object not serializable (class: " + P + "Client, value: Client)\n"
                + "\t- writeObject data (class: java.util.ArrayList)\n"
                + "\t- object (class java.util.ArrayList, [a, Client])\n"
                + "\t- field (class: " + P + "ListField, name: items, type: interface java.util.List)\n"
                + "\t- object (class " + P + "ListField, ListField)\n"
                + HINT + "Mark field 'items' of ");
    }

    @Test
    void an_array_field_names_the_element_index() {
        Throwable thrown = firstBatch(NonSerializableProcessors.ArrayField::new);

        assertThat(thrown).hasMessageContaining("Serialization stack:\n"
                + "\t- object not serializable (class: " + P + "Client, value: Client)\n"
                + "\t- element of array (index: 1)\n"
                + "\t- array (class [Ljava.lang.Object;, size 2)\n"
                + "\t- field (class: " + P + "ArrayField, name: clients, type: class [Ljava.lang.Object;)\n"
                + "\t- object (class " + P + "ArrayField, ArrayField)\n");
    }

    @Test
    void a_field_set_in_the_driver_side_init_fails_too_spec_1_1() {
        Throwable thrown = firstBatch(NonSerializableProcessors.SetInInit::new);

        assertThat(thrown).isExactlyInstanceOf(SparkException.class)
                .hasMessageContaining("\t- field (class: " + P + "SetInInit, name: client, type: class " + P + "Client)\n")
                .hasMessageEndingWith("Mark field 'client' of " + P + "SetInInit transient and create its value in init(), "
                        + "or make " + P + "Client Serializable.");
    }

    @Test
    void the_suggested_fix_a_transient_field_created_in_init_runs() {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(query(NonSerializableProcessors.TransientField::new));

        assertThat(sim.runBatch("k1").outputs()).containsExactly("k1");
    }

    @Test
    void the_simulator_is_built_and_every_batch_fails_committing_nothing_as_spark_fails_at_its_first_batch() {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(query(NonSerializableProcessors.DirectField::new));

        Throwable first = catchThrowable(() -> sim.runBatch("k1"));
        Throwable second = catchThrowable(sim::start); // the failed batch runs again, and fails again

        assertThat(first).isExactlyInstanceOf(SparkException.class).hasMessageStartingWith("Task not serializable\n");
        assertThat(second).isNotSameAs(first).hasMessage(first.getMessage());
        assertThat(sim.history().batches()).isEmpty();
    }

    @Test
    void fast_fidelity_takes_processors_from_the_supplier_and_does_not_fail() {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(query(NonSerializableProcessors.DirectField::new),
                Fidelity.FAST);

        assertThat(sim.runBatch("k1").outputs()).containsExactly("k1");
    }

    @Test
    void transient_and_static_fields_are_not_on_the_path() throws Exception {
        assertThat(SerializationPathFinder.find(new TransientAndStatic())).isEmpty();
        assertThat(new TwsSimulator<>(query(TransientAndStatic::new)).runBatch("k1").outputs()).containsExactly("k1");
    }

    /** Neither field is serialized. */
    public static final class TransientAndStatic extends NonSerializableProcessors.Base {
        static final NonSerializableProcessors.Client SHARED = new NonSerializableProcessors.Client();
        private final transient NonSerializableProcessors.Client client = new NonSerializableProcessors.Client();
    }

    @Test
    void an_externalizable_object_is_entered_through_what_writeExternal_writes() throws Exception {
        List<SerializationPathFinder.Step> stack = SerializationPathFinder.find(new Ext());

        assertThat(stack).extracting(SerializationPathFinder.Step::text).containsExactly(
                "object not serializable (class: " + P + "Client, value: Client)",
                "writeExternal data",
                "externalizable object (class dev.twstester.sim.TaskNotSerializableTest$Ext, Ext)");
    }

    /** Writes a String, then a Client. */
    public static final class Ext implements java.io.Externalizable {
        @Override
        public void writeExternal(java.io.ObjectOutput out) throws java.io.IOException {
            out.writeObject("name");
            out.writeObject(new NonSerializableProcessors.Client());
        }

        @Override
        public void readExternal(java.io.ObjectInput in) {}

        @Override
        public String toString() {
            return "Ext";
        }
    }
}
