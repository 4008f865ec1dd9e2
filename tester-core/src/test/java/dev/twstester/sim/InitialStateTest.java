package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.apache.spark.sql.Encoders;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.twstester.TwsQuery;

/** Initial state (docs/semantics.md, section 9), as recorded on live Spark 4.2.0. */
class InitialStateTest {

    @BeforeEach
    void clearLog() {
        Log.drain();
    }

    private static TwsQuery<String, String, String> query() {
        return ConcurrentCases.initialState();
    }

    @Test
    void spec_8_initial_state_runs_in_batch_0_before_input_keys_ascending_one_call_per_row() {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(query());
        sim.setProcessingTime(Instant.ofEpochMilli(1000));
        assertThat(Log.drain()).as("nothing before the first data batch").isEmpty();

        List<String> out = sim.runBatchAt(Instant.ofEpochMilli(2000), List.of("a,x", "d,x", "e,x")).outputs();
        assertThat(out).containsExactly("in:a:10", "in:d:null", "in:e:null");
        assertThat(Log.drain()).containsExactly(
                "initState key=a s=10 pt=2000,wm=0 batch=0 prev=null",
                "initState key=b s=20 pt=2000,wm=0 batch=0 prev=null",
                "initState key=b s=21 pt=2000,wm=0 batch=0 prev=20",
                "initState key=c s=30 pt=2000,wm=0 batch=0 prev=null",
                "input key=a pt=2000,wm=0 batch=0 rows=[a,x] state=10",
                "input key=d pt=2000,wm=0 batch=0 rows=[d,x] state=null",
                "input key=e pt=2000,wm=0 batch=0 rows=[e,x] state=null");
        assertThat(sim.state().<Long>value("s", "b")).contains(21L);
        assertThat(sim.state().timers("c")).containsExactly(Instant.ofEpochMilli(4000));

        // never again after batch 0
        sim.runBatchAt(Instant.ofEpochMilli(3000), List.of("b,y"));
        assertThat(Log.drain()).containsExactly("input key=b pt=3000,wm=0 batch=1 rows=[b,y] state=21");
    }

    @Test
    void spec_8_an_empty_first_batch_still_applies_initial_state() {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(query());
        assertThat(sim.runBatch(List.of()).batches()).singleElement().satisfies(b -> assertThat(b.batchId()).isZero());
        assertThat(sim.state().keys()).containsExactly("a", "b", "c");
    }

    @Test
    void initial_state_needs_a_processor_that_takes_it() {
        assertThatThrownBy(() -> TwsQuery.builder(ExperimentProcessor::new)
                .keyBy(s -> s, Encoders.STRING()).input(Encoders.STRING()).output(Encoders.STRING())
                .initialState(List.of(Map.entry("a", 1L)), Encoders.LONG()).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("StatefulProcessorWithInitialState");
    }
}
