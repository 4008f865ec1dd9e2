package dev.twstester.sim;

import java.util.List;

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
}
