package dev.twstester.sim;

import java.util.List;

import org.apache.spark.SparkThrowable;

import dev.twstester.TwsQuery;

/**
 * A query's operators started again from a checkpoint: a restore ({@link TwsSimulator#restore}),
 * checked before anything changes, or a new version deployed on the old state
 * ({@link TwsSimulator#restartWith}), checked by each operator as Spark checks it.
 */
final class Restarts {
    private static final String REMEDY = "restore it into the query it was taken from, then deploy a new version with "
            + "restartWith(next)";

    private Restarts() {
    }

    /** Throws {@link IllegalArgumentException} when {@code snapshot} is not of these operators. */
    static void checkRestore(List<Operator<?, ?, ?>> operators, StateSnapshot snapshot) {
        if (snapshot.operators.size() != operators.size()) {
            throw new IllegalArgumentException("cannot restore the snapshot: it holds " + snapshot.operators.size()
                    + " stateful operator(s), this query has " + operators.size() + "; " + REMEDY);
        }
        for (int i = 0; i < operators.size(); i++) {
            String problem = operators.get(i).store().restoreProblem(snapshot.operators.get(i), snapshot.loaded);
            if (problem != null) {
                String which = operators.size() == 1 ? "the snapshot" : "operator " + i + " of the snapshot";
                throw new IllegalArgumentException("cannot restore " + which + ": " + problem + "; " + REMEDY);
            }
        }
    }

    /** Every operator takes its part of {@code snapshot} ({@link #checkRestore} accepted it). */
    static void restore(List<Operator<?, ?, ?>> operators, StateSnapshot snapshot) {
        for (int i = 0; i < operators.size(); i++) {
            OperatorStore<?> store = operators.get(i).store();
            StateSnapshot.OperatorData data = snapshot.operators.get(i);
            store.restore(snapshot.loaded ? store.bind(data) : data);
        }
    }

    /** Throws when {@code next} is another plan, not a new version of each of these operators. */
    static void checkNewVersion(List<Operator<?, ?, ?>> operators, TwsQuery<?, ?, ?> next) {
        if (next.operators().size() != operators.size()) {
            throw new IllegalArgumentException("the new version has " + next.operators().size() + " stateful "
                    + "operator(s), the checkpoint " + operators.size() + "; twstester deploys a new version of each "
                    + "operator, not a new plan");
        }
    }

    /** Every operator of a new version reads its part of {@code checkpoint}, with Spark's checks. */
    static void restoreEvolved(List<Operator<?, ?, ?>> operators, StateSnapshot checkpoint) {
        for (int i = 0; i < operators.size(); i++) {
            operators.get(i).store().restoreEvolved(checkpoint.operators.get(i));
        }
    }

    /**
     * Stops {@code from} and starts {@code next} on its checkpoint: the state, the position, the
     * offset log's uncommitted batch, the waiting rows, the history, the options and listeners move
     * to the new version's simulator, whose first trigger runs before this returns. A new version
     * Spark refuses (its error has a condition, such as {@code STATE_STORE_INVALID_VARIABLE_TYPE_CHANGE})
     * is accepted, as Spark accepts the restart: its first batch fails with the refusal, and the
     * checkpoint's state stays as it was for a rollback ({@link BatchExecution#refuse}).
     */
    static <K, I, O> TwsSimulator<K, I, O> deploy(TwsSimulator<K, I, O> from, TwsQuery<K, I, O> next) {
        TwsSimulator<K, I, O> deployed = prepare(from, next);
        deployed.loop().start(); // its batches are kept in the history as they commit
        return deployed;
    }

    /**
     * {@link #deploy} up to the new run's first trigger: returns the new version's simulator,
     * stopped, with the checkpoint, the waiting rows, the history and the listeners; its
     * {@code loop().start()} runs the first trigger.
     */
    static <K, I, O> TwsSimulator<K, I, O> prepare(TwsSimulator<K, I, O> from, TwsQuery<K, I, O> next) {
        checkNewVersion(from.operators(), next);
        if (from.loop().running()) {
            from.loop().stop();
        }
        StateSnapshot checkpointed = from.snapshot();
        // Spark keeps the checkpoint's number of shuffle partitions (its offset log's setting)
        int partitions = from.query().shufflePartitions();
        TwsQuery<K, I, O> version = next.shufflePartitions() == partitions ? next : next.withShufflePartitions(partitions);
        TwsSimulator<K, I, O> deployed = from.options().forQuery(version).build();
        deployed.loop().stop();
        try {
            restoreEvolved(deployed.operators(), checkpointed);
        } catch (RuntimeException e) {
            if (!(e instanceof SparkThrowable st && st.getCondition() != null)) {
                throw e;
            }
            deployed.execution().refuse(e, checkpointed.operators);
        }
        deployed.position(checkpointed.position());
        deployed.checkpoint().carryUncommitted(from.checkpoint());
        deployed.calls().history().addAll(from.calls().history());
        deployed.calls().failures().addAll(from.calls().failures());
        from.calls().restartedWith(deployed);
        List<I> waiting = from.loop().waiting();
        if (!waiting.isEmpty()) {
            deployed.loop().addData(waiting);
        }
        return deployed;
    }
}
