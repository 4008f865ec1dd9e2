package dev.twstester;

import java.util.Objects;

/**
 * Two {@code transformWithState} operators in one streaming query: the upstream's output,
 * regrouped by the downstream's key, is the downstream's input. Immutable; run by
 * {@code dev.twstester.sim.ChainSimulator} or {@code dev.twstester.spark.LiveChainRunner}.
 *
 * <pre>{@code
 * TwsQuery<String, Click, Session> sessions = TwsQuery.builder(Sessionizer::new)
 *         .keyBy(Click::getUser, Encoders.STRING())
 *         .input(Encoders.bean(Click.class))
 *         .output(Encoders.bean(Session.class))
 *         .watermark("ts", Duration.ofMinutes(1))     // withWatermark("ts", "1 minute")
 *         .outputEventTimeColumn("end")                // transformWithState(processor, "end", ...)
 *         .build();
 * TwsQuery<String, Session, PageAlert> alerts = TwsQuery.builder(PageAlerts::new)
 *         .keyBy(Session::getPage, Encoders.STRING())  // groupByKey(...) on the sessions
 *         .input(Encoders.bean(Session.class))
 *         .output(Encoders.bean(PageAlert.class))
 *         .timeMode(TimeMode.EventTime())
 *         .build();
 * TwsChain<String, Click, Session, String, PageAlert> chain = TwsChain.of(sessions, alerts);
 * }</pre>
 * which is, in Spark:
 * <pre>{@code
 * clicks.withWatermark("ts", "1 minute")
 *       .groupByKey(Click::getUser, Encoders.STRING())
 *       .transformWithState(new Sessionizer(), "end", OutputMode.Update(), Encoders.bean(Session.class))
 *       .groupByKey(Session::getPage, Encoders.STRING())
 *       .transformWithState(new PageAlerts(), TimeMode.EventTime(), OutputMode.Update(), Encoders.bean(PageAlert.class))
 * }</pre>
 *
 * <p>How Spark 4.2.0 runs it: both operators run in every micro-batch, the upstream's tasks first.
 * The watermark comes only from the upstream's {@code withWatermark} column; both operators get
 * the same late-event watermark (the previous batch's) and eviction watermark (this batch's)
 * ({@code PropagateWatermarkSimulator}: a {@code transformWithState} in EventTime mode passes its
 * input watermark on unchanged). Every upstream output row at or before the late-event watermark
 * fails the query with {@code EMITTING_ROWS_OLDER_THAN_WATERMARK_NOT_ALLOWED} before the downstream
 * sees it; the downstream's late-row filter reads the upstream's event-time column with that same
 * watermark, so it drops nothing that reaches it (rows with a null event time pass both). A no-data
 * batch runs when either operator asks for one.
 *
 * <p>The query-level settings are the upstream's: its shuffle partitions (both shuffles) and its
 * trigger. The downstream has no {@code watermark(...)} (Spark's planner rejects a
 * {@code withWatermark} after a stateful operator) and no initial state here.
 *
 * @param <K>  the upstream's grouping key type
 * @param <I>  the query's input row type
 * @param <M>  the upstream's output rows: the downstream's input
 * @param <K2> the downstream's grouping key type
 * @param <O>  the query's output row type
 */
public final class TwsChain<K, I, M, K2, O> {
    private final TwsQuery<K, I, M> upstream;
    private final TwsQuery<K2, M, O> downstream;

    private TwsChain(TwsQuery<K, I, M> upstream, TwsQuery<K2, M, O> downstream) {
        this.upstream = upstream;
        this.downstream = downstream;
    }

    /**
     * The chain {@code upstream} then {@code downstream}. The upstream must use
     * {@code outputEventTimeColumn(...)} (so it has a watermark); the downstream's input encoder
     * must be the upstream's output encoder, and it must have no watermark, no initial state and no
     * trigger other than the upstream's. The downstream runs with the upstream's shuffle partitions
     * and trigger.
     */
    public static <K, I, M, K2, O> TwsChain<K, I, M, K2, O> of(TwsQuery<K, I, M> upstream, TwsQuery<K2, M, O> downstream) {
        Objects.requireNonNull(upstream, "upstream must not be null");
        Objects.requireNonNull(downstream, "downstream must not be null");
        if (upstream.outputEventTimeColumn().isEmpty()) {
            throw new IllegalArgumentException("the upstream query of a chain must use the eventTimeColumnName overload: "
                    + "add outputEventTimeColumn(column) to it (a timestamp column of its output), so the downstream "
                    + "operator gets an event-time column and the watermark");
        }
        if (downstream.eventTimeColumn().isPresent()) {
            throw new IllegalArgumentException("the downstream query of a chain must not have watermark(\""
                    + downstream.eventTimeColumn().get() + "\", ...): its watermark comes from the upstream's "
                    + "outputEventTimeColumn(\"" + upstream.outputEventTimeColumn().get() + "\"), and Spark rejects a "
                    + "withWatermark after a stateful operator; remove it");
        }
        if (downstream.initialState().isPresent()) {
            throw new IllegalArgumentException("initial state on the downstream query of a chain is not supported by "
                    + "twstester; remove initialState(...) from the downstream query");
        }
        if (!sameEncoder(upstream, downstream)) {
            throw new IllegalArgumentException("the downstream's input encoder must be the upstream's output encoder: "
                    + "upstream output " + describe(upstream.outputEncoder()) + ", downstream input "
                    + describe(downstream.inputEncoder()) + "; pass the same encoder to output(...) and input(...)");
        }
        if (downstream.triggerIntervalMs() != 0 && downstream.triggerIntervalMs() != upstream.triggerIntervalMs()) {
            throw new IllegalArgumentException("the downstream query's trigger " + downstream.trigger() + " differs from "
                    + "the upstream's " + upstream.trigger() + "; a query has one trigger: set it on the upstream only");
        }
        if (downstream.outputEventTimeColumn().isPresent()) {
            throw new IllegalArgumentException("outputEventTimeColumn(...) on the downstream query of a chain is not "
                    + "supported by twstester; remove it from the downstream query");
        }
        return new TwsChain<>(upstream, downstream.withShufflePartitions(upstream.shufflePartitions())
                .withTrigger(upstream.trigger()));
    }

    private static boolean sameEncoder(TwsQuery<?, ?, ?> upstream, TwsQuery<?, ?, ?> downstream) {
        var out = upstream.outputEncoder();
        var in = downstream.inputEncoder();
        return out.equals(in) || (out.schema().equals(in.schema()) && out.clsTag().equals(in.clsTag()));
    }

    private static String describe(org.apache.spark.sql.Encoder<?> encoder) {
        return encoder.clsTag().runtimeClass().getName() + " " + encoder.schema().simpleString();
    }

    /** The first operator: {@code withWatermark} on the input, the {@code eventTimeColumnName} overload. */
    public TwsQuery<K, I, M> upstream() {
        return upstream;
    }

    /** The second operator, with the upstream's shuffle partitions and trigger. */
    public TwsQuery<K2, M, O> downstream() {
        return downstream;
    }

    /** The upstream's output column that carries the watermark downstream. */
    public String eventTimeColumn() {
        return upstream.outputEventTimeColumn().orElseThrow();
    }

    /** {@code spark.sql.shuffle.partitions} of both shuffles. */
    public int shufflePartitions() {
        return upstream.shufflePartitions();
    }

    /** The same chain with {@code spark.sql.shuffle.partitions} set to {@code partitions}. */
    public TwsChain<K, I, M, K2, O> withShufflePartitions(int partitions) {
        return of(upstream.withShufflePartitions(partitions), downstream);
    }

    /** The same chain with another trigger (the query's one trigger, see {@code TwsQuery.Builder#trigger}). */
    public TwsChain<K, I, M, K2, O> withTrigger(org.apache.spark.sql.streaming.Trigger trigger) {
        return of(upstream.withTrigger(trigger), downstream.withTrigger(trigger));
    }
}
