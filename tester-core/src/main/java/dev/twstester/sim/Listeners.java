package dev.twstester.sim;

import java.util.List;

import dev.twstester.BatchResult;
import dev.twstester.FailedBatch;
import dev.twstester.RunResult;

/** A simulator's listeners, told in the order given. */
final class Listeners<K, I, O> implements SimulatorListener<K, I, O> {
    private final List<SimulatorListener<K, I, O>> all;

    Listeners(List<SimulatorListener<K, I, O>> all) {
        this.all = List.copyOf(all);
    }

    boolean isEmpty() {
        return all.isEmpty();
    }

    List<SimulatorListener<K, I, O>> all() {
        return all;
    }

    @Override
    public void callStarted(SimulatorCall<I> call) {
        all.forEach(l -> l.callStarted(call));
    }

    @Override
    public void callEnded(SimulatorCall<I> call, RunResult<K, I, O> ran, RuntimeException failure) {
        all.forEach(l -> l.callEnded(call, ran, failure));
    }

    @Override
    public void handlerStarting(HandlerCall call) {
        all.forEach(l -> l.handlerStarting(call));
    }

    @Override
    public void handlerEnded(HandlerCall call, List<?> emitted) {
        all.forEach(l -> l.handlerEnded(call, emitted));
    }

    @Override
    public void restartedWith(TwsSimulator<K, I, O> next) {
        all.forEach(l -> l.restartedWith(next));
    }

    @Override
    public void batchCommitted(BatchResult<K, I, O> batch, TwsSimulator<K, I, O> simulator) {
        all.forEach(l -> l.batchCommitted(batch, simulator));
    }

    @Override
    public void batchFailed(FailedBatch failed, TwsSimulator<K, I, O> simulator) {
        all.forEach(l -> l.batchFailed(failed, simulator));
    }
}
