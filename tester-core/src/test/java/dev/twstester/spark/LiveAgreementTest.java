package dev.twstester.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.sim.ConcurrentCases;
import dev.twstester.sim.TwsSimulator;

/**
 * The recorded experiments behind docs/semantics.md run on live Spark 4.2.0 and on the simulator:
 * every batch must agree.
 */
@Tag("live")
class LiveAgreementTest {

    private static Instant t(long ms) {
        return Instant.ofEpochMilli(ms);
    }

    private static <K, I, O> void assertAgree(TwsQuery<K, I, O> query, Scenario<I> scenario) {
        RunResult<K, I, O> sim = new TwsSimulator<>(query).run(scenario);
        RunResult<K, I, O> live = LiveRunner.of(query).run(scenario);
        assertThat(live.outputs()).as("the live run emitted rows").isNotEmpty();
        assertThat(live.firedTimers()).as("the live run fired timers").isNotEmpty();
        assertThat(live.batches()).hasSameSizeAs(sim.batches());
        for (int i = 0; i < sim.batches().size(); i++) {
            assertThat(live.batches().get(i)).as("batch %d", i).isEqualTo(sim.batches().get(i));
        }
    }

    @Test
    void processing_time_experiment_agrees() {
        TwsQuery<String, String, String> query = ConcurrentCases.experiment();
        Scenario<String> scenario = Scenario.<String>builder()
                .batchAt(t(1000), List.of("x,reg:70000", "x,reg:2000", "x,reg:1000", "x,reg:300", "x,reg:256", "x,reg:1",
                        "x,del:999", "b,reg:5000", "a,reg:5000", "ccc,reg:5000", "dd,reg:5000", "aa,reg:4000",
                        "chain1,reg:6000", "x,smap:b=1;a=2;c=3;aa=4;bbb=5;B=6", "x,imap:1=1;256=2;2=3;-1=4;65536=5",
                        "x,lst:z;y;x", "x,show", "y,ttlset:v1", "y,ttlget", "late,reg:500", "zz,reg:1000"))
                .tick(t(2000))
                .batchAt(t(3000), List.of("y,ttlget", "x,show", "x,smapclear"))
                .batchAt(t(4000), List.of("y,ttlget"))
                .batchAt(t(5000), List.of("y,ttlget", "y,ttlset:v2"))
                .tick(t(6000))
                .batchAt(t(8000), List.of("y,ttlget", "q,nullvalue"))
                .build();
        assertAgree(query, scenario);
    }

    @Test
    void event_time_experiment_agrees() {
        assertAgree(ConcurrentCases.eventTime(), ConcurrentCases.eventTimeScenario());
    }

    @Test
    void initial_state_agrees() {
        assertAgree(ConcurrentCases.initialState(), ConcurrentCases.initialStateScenario());
    }
}
