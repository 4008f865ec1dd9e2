package dev.twstester.scaladsl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.twstester.FiredTimer;
import dev.twstester.Scenario;
import dev.twstester.sim.TwsSimulator;
import scala.Option;
import scala.collection.immutable.Seq;
import scala.jdk.javaapi.CollectionConverters;

/** The Scala-shaped simulator: Seq in, immutable List, Option and Map out, the same runs as the Java API's. */
class ScalaSimulatorTest {
    @SafeVarargs
    static <T> Seq<T> seq(T... values) {
        return CollectionConverters.asScala(List.of(values)).toList();
    }

    static <K, V> scala.collection.immutable.Map<K, V> scalaMap(Map<K, V> map) {
        return scala.collection.immutable.Map$.MODULE$.from(CollectionConverters.asScala(map));
    }

    @Test
    void a_batch_of_a_seq_returns_its_outputs_as_an_immutable_list() {
        ScalaSimulator<String, String, String> sim = ScalaSimulator.of(Basket.query());

        ScalaRun<String, String, String> run = sim.runBatch(seq("ana:boots", "bob:hat", "ana:socks"));

        assertThat(run.outputs()).isInstanceOf(scala.collection.immutable.List.class)
                .isEqualTo(seq("ana:boots#1", "ana:socks#2", "bob:hat#1"));
        assertThat(run.batches().size()).isEqualTo(1);
        assertThat(run.lastBatch().batchId()).isZero();
        assertThat(run.result().outputs()).containsExactly("ana:boots#1", "ana:socks#2", "bob:hat#1");
        assertThat(sim.history().outputs()).isEqualTo(run.outputs());
    }

    @Test
    void state_reads_are_options_lists_and_maps() {
        ScalaSimulator<String, String, String> sim = ScalaSimulator.of(Basket.query());
        sim.runBatch(seq("ana:boots", "ana:socks", "ana:boots"));
        ScalaStateView<String> state = sim.state();

        assertThat(state.<Long>value("count", "ana")).isEqualTo(Option.apply(3L));
        assertThat(state.<Long>value("count", "bob")).isEqualTo(Option.empty());
        assertThat(state.<String>list("items", "ana")).isEqualTo(seq("boots", "socks", "boots"));
        assertThat(state.<String, Integer>map("seen", "ana")).isEqualTo(scalaMap(Map.of("boots", 2, "socks", 1)));
        assertThat(state.keys()).isEqualTo(seq("ana"));
        assertThat(state.variableNames()).isEqualTo(seq("count", "items", "seen"));
        assertThat(state.hasState("ana")).isTrue();
        assertThat(state.hasState("bob")).isFalse();
        assertThat(state.dump().keys()).hasSize(1);
    }

    @Test
    void map_reads_keep_sparks_iteration_order() {
        ScalaSimulator<String, String, String> sim = ScalaSimulator.of(Basket.query());
        sim.runBatch(seq("ana:e", "ana:d", "ana:c", "ana:b", "ana:a"));

        List<String> javaOrder = List.copyOf(sim.simulator().state().<String, Integer>map("seen", "ana").keySet());
        assertThat(CollectionConverters.asJava(sim.state().<String, Integer>map("seen", "ana").keys().toList()))
                .isEqualTo(javaOrder);
    }

    @Test
    void state_writes_take_scala_collections_and_the_processor_reads_them() {
        ScalaSimulator<String, String, String> sim = ScalaSimulator.of(Basket.query());
        sim.state().setValue("count", "cy", 10L)
                .setList("items", "cy", seq("cap"))
                .setMap("seen", "cy", scalaMap(Map.of("cap", 4)));

        ScalaRun<String, String, String> run = sim.test("cy", seq("cy:cap"));

        assertThat(run.outputs()).isEqualTo(seq("cy:cap#11"));
        assertThat(sim.state().<String>list("items", "cy")).isEqualTo(seq("cap", "cap"));
        assertThat(sim.state().<String, Integer>map("seen", "cy")).isEqualTo(scalaMap(Map.of("cap", 5)));

        sim.state().setList("items", "cy", seq()).clear("seen", "cy").clear("count", "cy");
        assertThat(sim.state().hasState("cy")).isFalse();
    }

    @Test
    void timers_fire_and_come_back_as_scala_lists() {
        ScalaSimulator<String, String, String> sim = ScalaSimulator.of(Basket.query());
        sim.runBatch(seq("ana:timer@5000"));
        sim.state().registerTimer("ana", Instant.ofEpochMilli(9000)).registerTimer("ana", Instant.ofEpochMilli(7000))
                .deleteTimer("ana", Instant.ofEpochMilli(7000));
        assertThat(sim.state().timers("ana")).isEqualTo(seq(Instant.ofEpochMilli(5000), Instant.ofEpochMilli(9000)));

        ScalaRun<String, String, String> run = sim.advanceProcessingTime(Duration.ofSeconds(6));

        assertThat(run.firedTimers()).isEqualTo(seq(new FiredTimer<>("ana", Instant.ofEpochMilli(5000))));
        assertThat(run.outputs()).isEqualTo(seq("ana:timer@5000"));
        assertThat(sim.processingTime()).isEqualTo(Instant.ofEpochMilli(6000));
        assertThat(sim.state().timers("ana")).isEqualTo(seq(Instant.ofEpochMilli(9000)));
    }

    @Test
    void a_scala_scenario_runs_as_the_same_java_scenario() {
        Scenario<String> scala = ScalaScenario.<String>builder()
                .batch(seq("ana:boots")).addData(seq("bob:hat")).tick(Instant.ofEpochMilli(1000))
                .restart().batchAt(Instant.ofEpochMilli(2000), seq("ana:socks")).build();
        Scenario<String> java = Scenario.<String>builder()
                .batch(List.of("ana:boots")).addData(List.of("bob:hat")).tick(Instant.ofEpochMilli(1000))
                .restart().batchAt(Instant.ofEpochMilli(2000), List.of("ana:socks")).build();
        assertThat(scala).isEqualTo(java);

        ScalaRun<String, String, String> run = ScalaSimulator.of(Basket.query()).run(scala);

        assertThat(run.result()).isEqualTo(new TwsSimulator<>(Basket.query()).run(java));
        assertThat(run.outputs()).isEqualTo(seq("ana:boots#1", "bob:hat#1", "ana:socks#2"));
    }

    @Test
    void added_rows_wait_until_the_trigger_and_the_simulator_can_be_stopped_and_restored() {
        ScalaSimulator<String, String, String> sim = ScalaSimulator.of(TwsSimulator.builder(Basket.query()).build());
        sim.runBatch(seq("ana:boots"));
        var snapshot = sim.snapshot();
        sim.stop();
        assertThat(sim.addData(seq("ana:socks")).isEmpty()).isTrue();
        assertThat(sim.waitingRows()).isEqualTo(seq("ana:socks"));

        assertThat(sim.start().outputs()).isEqualTo(seq("ana:socks#2"));
        sim.restore(snapshot);
        assertThat(sim.runBatch(seq("ana:hat")).outputs()).isEqualTo(seq("ana:hat#2"));
    }

    @Test
    void a_null_seq_is_refused_with_what_to_pass_instead() {
        ScalaSimulator<String, String, String> sim = ScalaSimulator.of(Basket.query());

        assertThatThrownBy(() -> sim.runBatch(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("rows must not be null; pass Seq() for none");
        assertThatThrownBy(() -> sim.state().setMap("seen", "ana", null)).isInstanceOf(NullPointerException.class)
                .hasMessage("entries must not be null; pass Map() for none");
    }
}
