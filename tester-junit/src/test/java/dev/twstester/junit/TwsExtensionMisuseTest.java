package dev.twstester.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;

/** Misuse of the extension fails with a message saying what to change; each case is an example class. */
class TwsExtensionMisuseTest {
    @TempDir
    Path traces;

    private Throwable testFailure(Class<?> example) {
        EngineExecutionResults results = Kit.run(example, traces);
        results.testEvents().assertStatistics(s -> s.started(1).failed(1));
        return Kit.failure(results);
    }

    private Throwable classFailure(Class<?> example) {
        EngineExecutionResults results = Kit.run(example, traces);
        results.testEvents().assertStatistics(s -> s.started(0));
        return Kit.containerFailure(results);
    }

    @Test
    void a_field_of_another_type() {
        assertThat(testFailure(TwsExtensionExamples.WrongFieldType.class))
                .isInstanceOf(ExtensionConfigurationException.class)
                .hasMessage("@Simulator field 'sim' of WrongFieldType is a RunResult; declare it as "
                        + "TestSimulator<K, I, O> (or TwsSimulator<K, I, O>, which gets one too)");
    }

    @Test
    void a_final_field() {
        assertThat(testFailure(TwsExtensionExamples.FinalField.class))
                .isInstanceOf(ExtensionConfigurationException.class)
                .hasMessage("@Simulator field 'sim' of FinalField is final; remove final so the extension can set it");
    }

    @Test
    void a_field_with_an_initializer() {
        assertThat(testFailure(TwsExtensionExamples.InitializedField.class))
                .isInstanceOf(ExtensionConfigurationException.class)
                .hasMessage("@Simulator field 'sim' of InitializedField already has a value; remove the initializer: "
                        + "the extension creates the simulator from the query source");
    }

    @Test
    void no_query_source() {
        assertThat(testFailure(TwsExtensionExamples.NoQuery.class))
                .isInstanceOf(ExtensionConfigurationException.class)
                .hasMessage("no TwsQuery for field 'sim' of NoQuery: declare one in NoQuery, e.g. static "
                        + "TwsQuery<K, I, O> query() { return ...; }, or name one with @Simulator(query = \"Class#method\")");
    }

    @Test
    void two_query_sources_and_no_name() {
        assertThat(testFailure(TwsExtensionExamples.TwoQueries.class))
                .isInstanceOf(ExtensionConfigurationException.class)
                .hasMessage("TwoQueries declares several queries [OTHER, query()]; say which one field 'sim' of "
                        + "TwoQueries runs, e.g. @Simulator(query = \"OTHER\")");
    }

    @Test
    void an_unknown_query_name() {
        assertThat(testFailure(TwsExtensionExamples.UnknownQuery.class))
                .isInstanceOf(ExtensionConfigurationException.class)
                .hasMessage("no field or no-argument method 'quuery' in UnknownQuery for field 'sim' of UnknownQuery; "
                        + "queries declared: [query()]");
    }

    @Test
    void a_query_source_of_another_type() {
        assertThat(testFailure(TwsExtensionExamples.NotAQuery.class))
                .isInstanceOf(ExtensionConfigurationException.class)
                .hasMessage("NotAQuery.name() is a String, not a TwsQuery; field 'sim' of NotAQuery needs a "
                        + "TwsQuery<K, I, O>");
    }

    @Test
    void a_query_that_does_not_build() {
        assertThat(testFailure(TwsExtensionExamples.QueryThrows.class))
                .isInstanceOf(ExtensionConfigurationException.class)
                .hasMessage("query source QueryThrows.query() for field 'sim' of QueryThrows threw NullPointerException: "
                        + "keyBy(...) must be set: the groupByKey function and key encoder; fix the query definition")
                .hasCauseInstanceOf(NullPointerException.class);
    }

    @Test
    void a_null_query() {
        assertThat(testFailure(TwsExtensionExamples.NullQuery.class))
                .isInstanceOf(ExtensionConfigurationException.class)
                .hasMessage("query source NullQuery.query for field 'sim' of NullQuery is null; give it a TwsQuery "
                        + "built with TwsQuery.builder(...).build()");
    }

    @Test
    void a_processor_whose_init_fails() {
        // the simulator starts, as Spark's query does; the first batch fails with the driver-side init()'s error
        assertThat(testFailure(TwsExtensionExamples.InitFails.class))
                .isInstanceOf(org.apache.spark.SparkRuntimeException.class)
                .hasMessageStartingWith("[STATEFUL_PROCESSOR_DUPLICATE_STATE_VARIABLE_DEFINED] State variable with name "
                        + "count has already been defined in the StatefulProcessor.");
    }

    @Test
    void a_static_simulator_with_an_instance_query_source() {
        assertThat(classFailure(TwsExtensionExamples.StaticSimulatorInstanceQuery.class))
                .isInstanceOf(ExtensionConfigurationException.class)
                .hasMessage("static field 'shared' of StaticSimulatorInstanceQuery is created before any test instance "
                        + "exists, but its query source StaticSimulatorInstanceQuery.query is not static; make "
                        + "StaticSimulatorInstanceQuery.query static");
    }

    @Test
    void a_parameter_of_another_type() {
        assertThat(testFailure(TwsExtensionExamples.WrongParameterType.class))
                .isInstanceOf(ParameterResolutionException.class)
                .hasMessage("parameter 1 of test() is annotated @Simulator but is a List; declare it as "
                        + "TestSimulator<K, I, O> (or TwsSimulator<K, I, O>)");
    }

    @Test
    void a_constructor_parameter() {
        assertThat(testFailure(TwsExtensionExamples.ConstructorParameter.class))
                .isInstanceOf(ParameterResolutionException.class)
                .hasMessage("a TestSimulator cannot be passed to the constructor of ConstructorParameter; use a "
                        + "@Simulator field or a test method parameter");
    }

    @Test
    void a_call_live_spark_cannot_replay_in_a_test_compared_with_spark() {
        Throwable failure = testFailure(TwsExtensionExamples.NotReplayable.class);

        assertThat(failure).isInstanceOf(ExtensionConfigurationException.class)
                .hasMessage("compareWithSpark: simulator 'sim' call #2 advanceWatermarkTo(1970-01-01T00:00:20Z) cannot be "
                        + "replayed on live Spark: Spark moves the watermark only from the event times of input rows; "
                        + "drive it with input (runBatch) instead; or leave this test out of the comparison "
                        + "(compareWithSpark = false)");
        assertThat(failure.getSuppressed()).singleElement().isInstanceOf(SimulatorTrace.class);
    }

    @Test
    void a_shared_simulator_in_a_test_compared_with_spark() {
        assertThat(classFailure(TwsExtensionExamples.SharedAndCompared.class))
                .isInstanceOf(ExtensionConfigurationException.class)
                .hasMessage("static field 'shared' of SharedAndCompared is shared by all tests, but compareWithSpark "
                        + "replays one test's calls on a new Spark query; make 'shared' an instance field");
    }
}
