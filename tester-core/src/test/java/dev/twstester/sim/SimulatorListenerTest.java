package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;

/**
 * A {@link SimulatorListener} on a query of two operators: the calls with their steps or why they
 * have none (a write to the second operator's state named {@code state(1)}), the committed batches,
 * and a {@code restartWith} that hands the listeners to the new version's simulator.
 */
class SimulatorListenerTest {
    private final List<String> log = new ArrayList<>();
    private final List<TwsSimulator<String, Event, OutEvent>> simulators = new ArrayList<>();

    private final SimulatorListener<String, Event, OutEvent> listener = new SimulatorListener<>() {
        @Override
        public void callStarted(SimulatorCall<Event> call) {
            log.add("call " + call.description() + ": " + call.steps().size() + " steps"
                    + (call.replayable() ? "" : ", not replayable"));
        }

        @Override
        public void callEnded(SimulatorCall<Event> call, RunResult<String, Event, OutEvent> ran,
                RuntimeException failure) {
            log.add("ended " + call.description() + ": " + ran.batches().size() + " batches");
        }

        @Override
        public void restartedWith(TwsSimulator<String, Event, OutEvent> next) {
            log.add("restarted with simulator " + simulators.size() + " at batch " + next.nextBatchId()
                    + ", n of a1 " + next.state().value("n", "a1").orElse(null));
            simulators.add(next);
        }

        @Override
        public void batchCommitted(BatchResult<String, Event, OutEvent> batch,
                TwsSimulator<String, Event, OutEvent> simulator) {
            log.add("batch " + batch.batchId() + " of simulator " + simulators.indexOf(simulator));
        }
    };

    @Test
    void restart_with_hands_the_listeners_to_the_new_version_before_its_first_batch() {
        TwsSimulator<String, Event, OutEvent> v1 = TwsSimulator.builder(ChainProcessors.chain()).listener(listener)
                .build();
        simulators.add(v1);
        v1.runBatch(new Event("a1", 10_000, "x"));
        v1.stop();
        v1.addData(new Event("b1", 11_000, "x"));   // waits: the new version's first trigger reads it

        TwsSimulator<String, Event, OutEvent> v2 = v1.restartWith(ChainProcessors.chain());
        v2.state(1).setValue("count", "a", 5L);

        assertThat(simulators).hasSize(2).last().isSameAs(v2);
        assertThat(v2.<String>state(1).value("count", "a")).contains(5L);
        assertThat(log).containsExactly(
                "call runBatch(1 row): 1 steps", "batch 0 of simulator 0", "batch 1 of simulator 0",
                "ended runBatch(1 row): 2 batches",
                "call stop(): 1 steps", "ended stop(): 0 batches",
                "call addData(1 row): 1 steps", "ended addData(1 row): 0 batches",
                "call restartWith(next): 0 steps, not replayable", "restarted with simulator 1 at batch 2, n of a1 1",
                "batch 2 of simulator 1", "batch 3 of simulator 1",   // b1 moved the watermark: a no-data batch
                "ended restartWith(next): 0 batches",   // it returns the simulator; the batches are in its history
                "call state(1).setValue(\"count\", a, 5): 0 steps, not replayable",
                "ended state(1).setValue(\"count\", a, 5): 0 batches");
    }
}
