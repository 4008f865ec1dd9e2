package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.apache.spark.sql.Row;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import dev.twstester.BatchResult;
import dev.twstester.RunComparison;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.ChainProcessors;
import dev.twstester.sim.StateSnapshot;
import dev.twstester.sim.TwsSimulator;
import dev.twstester.sim.Event;
import dev.twstester.sim.OutEvent;

/**
 * {@link CheckpointState#of} on the checkpoint of a two-operator query run on live Spark: the run stops
 * after {@link ChainProcessors#firstPart()} and starts again for {@link ChainProcessors#restPart()}.
 * The checkpoint read at the first part's last batch holds exactly the state and timers of both
 * operators of the simulator after the first part; a simulator seeded from it runs the rest
 * with Spark's batches and ends with the checkpoint's last state. A single query's checkpoint, and a
 * chain of other processors, are refused with what differs.
 */
@Tag("live")
class ChainCheckpointStateTest {
    private static final RunComparison<Object> SAME = RunComparison.simulatorVsSpark();
    private static final TwsQuery<String, Event, OutEvent> CHAIN = ChainProcessors.chain();
    private static Path checkpoint;
    private static RunResult<String, Event, OutEvent> live;

    @BeforeAll
    static void runLive(@TempDir Path dir) {
        checkpoint = dir.resolve("checkpoint");
        List<Scenario.Step<Event>> steps = new ArrayList<>(ChainProcessors.firstPart().steps());
        steps.add(new Scenario.Stop<>());
        steps.add(new Scenario.Start<>());
        steps.addAll(ChainProcessors.restPart().steps());
        live = LiveRunner.of(CHAIN).keepCheckpointIn(checkpoint).run(new Scenario<>(steps));
        assertThat(live.batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L);
    }

    @Test
    void spark_numbers_the_downstream_operator_0_and_the_upstream_1() throws Exception {
        Map<Integer, List<String>> variables = new TreeMap<>();
        ObjectMapper json = new ObjectMapper();
        for (Row op : LiveSpark.session().read().format("state-metadata").load(checkpoint.toString()).collectAsList()) {
            List<String> names = new ArrayList<>();
            for (JsonNode v : json.readTree((String) op.getAs("operatorProperties")).path("stateVariables")) {
                if (!v.path("stateVariableType").asText().equals("TimerState")) {
                    names.add(v.path("stateName").asText());
                }
            }
            names.sort(null);
            variables.put(((Number) op.getAs("operatorId")).intValue(), names);
        }
        // Tally (downstream) declares count and last, Relay (upstream) n
        assertThat(variables).containsExactly(Map.entry(0, List.of("count", "last")), Map.entry(1, List.of("n")));
    }

    @Test
    void the_checkpoint_at_the_stop_is_the_simulators_chain_snapshot_and_seeds_the_rest_of_the_run() {
        TwsSimulator<String, Event, OutEvent> firstOnly = new TwsSimulator<>(CHAIN);
        RunResult<String, Event, OutEvent> firstRun = firstOnly.run(ChainProcessors.firstPart());
        long lastOfFirst = firstRun.lastBatch().batchId();

        StateSnapshot production = CheckpointState.of(CHAIN).batchId(lastOfFirst).read(checkpoint);

        StateSnapshot simulated = firstOnly.snapshot();
        assertThat(SAME.stateDifferences(simulated, production)).isEmpty();
        assertThat(production.operatorCount()).isEqualTo(2);
        assertThat(production.nextBatchId()).isEqualTo(lastOfFirst + 1).isEqualTo(4);
        assertThat(production.watermark()).isEqualTo(Instant.ofEpochMilli(19000));
        assertThat(production.variableNames(0)).containsExactly("n");
        assertThat(production.variableNames(1)).containsExactly("count", "last");

        TwsSimulator<String, Event, OutEvent> seeded = new TwsSimulator<>(CHAIN);
        assertThat(seeded.restore(production).isEmpty()).isTrue();
        RunResult<String, Event, OutEvent> replayed = seeded.run(ChainProcessors.restPart());

        int first = firstRun.batches().size();
        SAME.assertSame(replayed.operator(0), after(live, first).operator(0));
        SAME.assertSame(replayed.operator(1), after(live, first).operator(1));
        SAME.assertSame(replayed, after(live, first));
        assertThat(replayed.batches()).extracting(BatchResult::batchId).containsExactly(4L, 5L, 6L, 7L);
        assertThat(replayed.outputs()).hasSize(7);
        StateSnapshot end = CheckpointState.of(CHAIN).read(checkpoint);
        assertThat(end.nextBatchId()).isEqualTo(8);
        assertThat(SAME.stateDifferences(seeded.snapshot(), end)).isEmpty();
    }

    private static <K, I, O> RunResult<K, I, O> after(RunResult<K, I, O> run, int from) {
        return new RunResult<>(run.batches().subList(from, run.batches().size()));
    }

    @Test
    void a_single_querys_checkpoint_is_no_chains(@TempDir Path dir) {
        Path single = dir.resolve("single");
        LiveRunner.of(ChainProcessors.relay()).keepCheckpointIn(single)
                .run(Scenario.<Event>builder().batch(List.of(new Event("a1", 10000, "x"))).build());

        assertThatThrownBy(() -> CheckpointState.of(CHAIN).read(single)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the checkpoint " + single.toAbsolutePath() + " holds the state of stateful operators [0], the "
                        + "query has 2: [0, 1], numbered from the sink back to the source (its last operator is 0); "
                        + "read a query of one stateful operator with a query of one");
        assertThatThrownBy(() -> CheckpointState.of(CHAIN).operatorId(1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("operatorId(1): the query has 2 stateful operators, each read from its own id (from the sink "
                        + "back to the source); operatorId(...) picks the operator a query of one operator reads");
    }

    @Test
    void a_chain_of_other_processors_is_refused_naming_the_operator() {
        assertThatThrownBy(() -> CheckpointState.of(ChainProcessors.byLength()).batchId(3).read(checkpoint))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("the query's operator 1 (Tally, operator 0 in the checkpoint): the checkpoint "
                        + checkpoint.toAbsolutePath()
                        + " (operator 0, batch 3) was not written by this version of the query's processor ("
                        + ChainProcessors.Tally.class.getName() + "), or is another query's:")
                .hasMessageContaining("state variable 'count': the checkpoint's grouping key is struct<value:string>, "
                        + "the query's key encoder gives struct<value:int>");
        assertThatThrownBy(() -> CheckpointState.of(CHAIN).batchId(8).read(checkpoint))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("batch 8 is not committed in the checkpoint " + checkpoint.toAbsolutePath()
                        + "; its last committed batch is 7");
    }
}
