package dev.twstester;

import java.util.List;
import java.util.Objects;

/**
 * The micro-batches a {@link TwsChain} ran, seen from each operator: the same batches (same ids,
 * watermarks and processing times) in two {@link RunResult}s.
 *
 * <pre>{@code
 * ChainResult<String, Click, Session, String, PageAlert> run = sim.runBatch(clicks);
 * run.outputs();                         // what the query wrote: the downstream's outputs
 * run.upstream().outputs();              // the sessions the downstream received
 * run.downstream().firedTimers();        // the downstream's timers, with its keys
 * }</pre>
 *
 * @param upstream   per batch: the query's input, the rows dropped as late, the upstream's outputs,
 *                   timers and metrics
 * @param downstream per batch: the upstream's outputs as input (rows the downstream's late filter
 *                   dropped, if any, in {@code droppedLate}), its outputs, timers and metrics
 * @param <K>  the upstream's grouping key type
 * @param <I>  the query's input row type
 * @param <M>  the upstream's output rows
 * @param <K2> the downstream's grouping key type
 * @param <O>  the query's output row type
 */
public record ChainResult<K, I, M, K2, O>(RunResult<K, I, M> upstream, RunResult<K2, M, O> downstream) {
    public ChainResult {
        Objects.requireNonNull(upstream, "upstream must not be null");
        Objects.requireNonNull(downstream, "downstream must not be null");
        if (upstream.batches().size() != downstream.batches().size()) {
            throw new IllegalArgumentException("both operators run in every batch: the upstream has "
                    + upstream.batches().size() + " batches, the downstream " + downstream.batches().size());
        }
    }

    /** The query's output rows (the downstream's), all batches in order. */
    public List<O> outputs() {
        return downstream.outputs();
    }

    /** How many micro-batches ran. */
    public int size() {
        return upstream.batches().size();
    }

    /** True when no batch ran. */
    public boolean isEmpty() {
        return upstream.isEmpty();
    }
}
