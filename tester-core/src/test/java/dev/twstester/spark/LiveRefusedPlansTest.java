package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.apache.spark.SparkThrowable;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.KeyValueGroupedDataset;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.streaming.sources.MemorySink;
import org.apache.spark.sql.streaming.GroupStateTimeout;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.twstester.TwsQuery;
import dev.twstester.sim.ChainProcessors;
import dev.twstester.sim.Event;
import dev.twstester.sim.MultiOperatorQueryTest;
import dev.twstester.sim.OutEvent;
import dev.twstester.sim.PlanProcessors;

/**
 * What Spark does with each plan of several operators that {@link TwsQuery#then} refuses: the same
 * job written with Spark's API, started on live Spark, fails with the error class and message
 * {@code then} names, when the query starts or at the batch given. One plan {@code then} refuses
 * is run by Spark ({@code docs/limitations.md}).
 */
@Tag("live")
class LiveRefusedPlansTest {
    private static final List<List<Event>> BATCHES = List.of(
            List.of(new Event("a1", 10000, "x"), new Event("b1", 20000, "x")),
            List.of(new Event("a1", 30000, "x")),
            List.of(new Event("b1", 40000, "x")));

    /** How a job ended: the error Spark threw (null: none) and when ("start", or "batch N" for the batch being planned or run). */
    record Outcome(Throwable error, String when, List<Object> rows) {
        /** The error class of Spark's innermost error (a failed batch's is wrapped in {@code STREAM_FAILED}). */
        String condition() {
            return spark() == null ? null : spark().getCondition();
        }

        String message() {
            return spark() == null ? null : ((Throwable) spark()).getMessage();
        }

        private SparkThrowable spark() {
            SparkThrowable innermost = null;
            for (Throwable t = error; t != null; t = t.getCause()) {
                if (t instanceof SparkThrowable st && st.getCondition() != null) {
                    innermost = st;
                }
            }
            return innermost;
        }
    }

    /** Starts {@code plan} on a memory source of events in {@code mode} and runs {@link #BATCHES}, one at a time. */
    private static Outcome run(Function<Dataset<Event>, Dataset<?>> plan, OutputMode mode) throws Exception {
        SparkSession spark = LiveSpark.forRun(LiveSpark.session(), 1);
        SparkStreaming.MemorySource<Event> source = SparkStreaming.memoryStream(Encoders.bean(Event.class), spark);
        MemorySink sink = SparkStreaming.memorySink();
        Path checkpoint = Files.createTempDirectory(LiveSpark.defaultCheckpointRoot(), "twstester-refused-");
        StreamingQuery query;
        try {
            query = SparkStreaming.start(spark, plan.apply(source.toDS()), sink, Trigger.ProcessingTime(0),
                    new SparkStreaming.StepClock(0L), checkpoint.toString(), mode);
        } catch (Exception e) {
            LiveRunner.deleteRecursively(checkpoint);
            return new Outcome(e, "start", List.of());
        }
        try {
            for (List<Event> rows : BATCHES) {
                source.addData(rows);
                query.processAllAvailable();
            }
            return new Outcome(null, null, rowsOf(sink));
        } catch (Exception e) {
            long done = query.lastProgress() == null ? -1 : query.lastProgress().batchId();
            return new Outcome(e, "batch " + (done + 1), rowsOf(sink));
        } finally {
            query.stop();
            LiveRunner.deleteRecursively(checkpoint);
        }
    }

    private static List<Object> rowsOf(MemorySink sink) {
        List<Object> rows = new ArrayList<>();
        SparkStreaming.sinceBatch(sink, -1).forEach(r -> rows.add(r.get(r.fieldIndex("what"))));
        return rows;
    }

    /** The source's events regrouped by user into Relay with the eventTimeColumnName overload (as {@link ChainProcessors#relay()}). */
    private static Dataset<OutEvent> relay(Dataset<Event> source) {
        return byUser(source.withWatermark("ts", "5 seconds")).transformWithState(new ChainProcessors.Relay(), "outTs",
                OutputMode.Update(), Encoders.bean(OutEvent.class));
    }

    private static KeyValueGroupedDataset<String, Event> byUser(Dataset<Event> events) {
        return events.groupByKey((MapFunction<Event, String>) Event::getKey, Encoders.STRING());
    }

    private static KeyValueGroupedDataset<String, OutEvent> byTeam(Dataset<OutEvent> rows) {
        return rows.groupByKey((MapFunction<OutEvent, String>) e -> e.getKey().substring(0, 1), Encoders.STRING());
    }

    private static Dataset<OutEvent> teamRunning(Dataset<OutEvent> in, OutputMode mode) {
        return byTeam(in).flatMapGroupsWithState(new PlanProcessors.TeamRunning(), mode, Encoders.LONG(),
                Encoders.bean(OutEvent.class), GroupStateTimeout.NoTimeout());
    }

    private static Dataset<OutEvent> teamTotal(Dataset<OutEvent> in) {
        return byTeam(in).mapGroupsWithState(new PlanProcessors.TeamTotal(), Encoders.LONG(), Encoders.bean(OutEvent.class),
                GroupStateTimeout.NoTimeout());
    }

    private static Dataset<OutEvent> probe(Dataset<OutEvent> in) {
        return byTeam(in).transformWithState(new PlanProcessors.Probe(), TimeMode.EventTime(), OutputMode.Update(),
                Encoders.bean(OutEvent.class));
    }

    private static final String LEGACY = "_LEGACY_ERROR_TEMP_3102";

    @Test
    void a_stateful_operator_after_a_legacy_event_time_timeout_fails_the_start() throws Exception {
        Outcome spark = run(source -> probe(byTeam(relay(source)).flatMapGroupsWithState(new MultiOperatorQueryTest.TeamCount(),
                        OutputMode.Append(), Encoders.LONG(), Encoders.STRING(), GroupStateTimeout.EventTimeTimeout())
                .map((MapFunction<String, OutEvent>) s -> new OutEvent(s, 50000, s), Encoders.bean(OutEvent.class))),
                OutputMode.Append());

        assertThat(spark.when()).isEqualTo("start");
        assertThat(spark.condition()).isEqualTo(LEGACY);
        assertThat(spark.message()).contains("Detected pattern of possible 'correctness' issue due to global watermark");
        TwsQuery<String, Event, String> legacyLast = ChainProcessors.relay().then(TwsQuery.flatMapGroupsWithState(
                        new MultiOperatorQueryTest.TeamCount(), OutputMode.Append(), Encoders.LONG(),
                        GroupStateTimeout.EventTimeTimeout())
                .keyBy(e -> e.getKey().substring(0, 1), Encoders.STRING())
                .input(Encoders.bean(OutEvent.class))
                .output(Encoders.STRING()));
        assertThatThrownBy(() -> legacyLast.then(TwsQuery.<String, String, String>builder(() -> null)
                .keyBy(s -> s, Encoders.STRING()).input(Encoders.STRING()).output(Encoders.STRING())))
                .hasMessageStartingWith("[" + LEGACY + "] Detected pattern of possible 'correctness' issue due to global watermark");
    }

    @Test
    void a_legacy_event_time_timeout_after_an_operator_without_the_overload_fails_the_start() throws Exception {
        Outcome spark = run(source -> byTeam(byUser(source.withWatermark("ts", "5 seconds")).transformWithState(
                        new ChainProcessors.Relay(), TimeMode.EventTime(), OutputMode.Update(), Encoders.bean(OutEvent.class)))
                .flatMapGroupsWithState(new MultiOperatorQueryTest.TeamCount(), OutputMode.Append(), Encoders.LONG(),
                        Encoders.STRING(), GroupStateTimeout.EventTimeTimeout()), OutputMode.Append());

        assertThat(spark.when()).isEqualTo("start");
        assertThat(spark.condition()).isEqualTo(LEGACY);
        assertThat(spark.message()).contains("Watermark must be specified in the query using "
                + "'[Dataset/DataFrame].withWatermark()' for using event-time timeout in a [map|flatMap]GroupsWithState");
        assertThatThrownBy(() -> PlanProcessors.plainRelay().then(TwsQuery.flatMapGroupsWithState(
                        new MultiOperatorQueryTest.TeamCount(), OutputMode.Append(), Encoders.LONG(),
                        GroupStateTimeout.EventTimeTimeout())
                .keyBy(e -> e.getKey().substring(0, 1), Encoders.STRING())
                .input(Encoders.bean(OutEvent.class))
                .output(Encoders.STRING())))
                .hasMessageStartingWith("[" + LEGACY + "] Watermark must be specified");
    }

    @Test
    void two_legacy_functions_fail_the_start_unless_both_are_flat_maps_in_append_mode() throws Exception {
        Outcome updates = run(source -> teamRunning(teamRunning(relay(source), OutputMode.Update()), OutputMode.Update()),
                OutputMode.Update());
        Outcome appendsInUpdate = run(source -> teamRunning(teamRunning(relay(source), OutputMode.Append()),
                OutputMode.Append()), OutputMode.Update());
        Outcome mixed = run(source -> teamRunning(teamTotal(relay(source)), OutputMode.Update()), OutputMode.Update());
        Outcome maps = run(source -> teamTotal(teamTotal(relay(source))), OutputMode.Update());

        for (Outcome spark : List.of(updates, appendsInUpdate, mixed, maps)) {
            assertThat(spark.when()).isEqualTo("start");
            assertThat(spark.condition()).isEqualTo(LEGACY);
        }
        assertThat(updates.message()).contains("Multiple flatMapGroupsWithStates are not supported when they are not all "
                + "in append mode or the output mode is not append");
        assertThat(appendsInUpdate.message()).contains("Multiple flatMapGroupsWithStates are not supported");
        assertThat(mixed.message()).contains("Mixing mapGroupsWithStates and flatMapGroupsWithStates are not supported");
        assertThat(maps.message()).contains("Multiple mapGroupsWithStates are not supported");
        assertThatThrownBy(() -> ChainProcessors.relay().then(PlanProcessors.teamRunning(OutputMode.Update()))
                .then(PlanProcessors.teamRunning(OutputMode.Update())))
                .hasMessageStartingWith("[" + LEGACY + "] Multiple flatMapGroupsWithStates are not supported");
        assertThatThrownBy(() -> ChainProcessors.relay().then(PlanProcessors.teamTotal()).then(PlanProcessors.teamRunning(
                OutputMode.Update()))).hasMessageStartingWith("[" + LEGACY + "] Mixing mapGroupsWithStates");
        assertThatThrownBy(() -> ChainProcessors.relay().then(PlanProcessors.teamTotal()).then(PlanProcessors.teamTotal()))
                .hasMessageStartingWith("[" + LEGACY + "] Multiple mapGroupsWithStates");
    }

    @Test
    void a_legacy_function_in_another_output_mode_than_the_querys_fails_the_start() throws Exception {
        Outcome spark = run(source -> teamRunning(relay(source), OutputMode.Append()), OutputMode.Update());

        assertThat(spark.when()).isEqualTo("start");
        assertThat(spark.condition()).isEqualTo(LEGACY);
        assertThat(spark.message()).contains("flatMapGroupsWithState in append mode is not supported with Update output mode");
        assertThatThrownBy(() -> ChainProcessors.relay().then(PlanProcessors.teamRunning(OutputMode.Append())
                .outputMode(OutputMode.Update())))
                .hasMessageStartingWith("[" + LEGACY + "] flatMapGroupsWithState in append mode is not supported with "
                        + "Update output mode");
    }

    @Test
    void a_watermark_after_an_operator_that_passes_one_on_fails_the_first_batch_with_a_watermark() throws Exception {
        Outcome spark = run(source -> probe(relay(source).withWatermark("outTs", "1 second")), OutputMode.Update());

        assertThat(spark.when()).isEqualTo("batch 1");
        assertThat(spark.condition()).isEqualTo("_LEGACY_ERROR_TEMP_3076");
        assertThat(spark.rows()).containsExactly("x wm=0", "x wm=0");
        assertThatThrownBy(() -> ChainProcessors.relay().then(PlanProcessors.probe(TimeMode.EventTime(), OutputMode.Update())
                .watermark("outTs", java.time.Duration.ofSeconds(1))))
                .hasMessageContaining("[_LEGACY_ERROR_TEMP_3076]");
    }

    @Test
    void spark_runs_a_watermark_after_an_operator_no_watermark_reaches_which_then_refuses() throws Exception {
        Outcome spark = run(source -> probe(byUser(source).transformWithState(new ChainProcessors.Relay(), TimeMode.None(),
                OutputMode.Update(), Encoders.bean(OutEvent.class)).withWatermark("outTs", "1 second")), OutputMode.Update());

        assertThat(spark.error()).isNull();
        // the second operator's own watermark, from its own withWatermark: 19000 after batch 0 (b1 at 20000 less 1 s)
        assertThat(spark.rows()).containsExactly("x wm=0", "x wm=0", "x wm=19000", "timer wm=29000", "x wm=29000",
                "timer wm=39000");
    }
}
