package dev.twstester;

import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.streaming.GroupStateTimeout;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;

/**
 * What Spark 4.x requires of a stateful operator that follows another in one query
 * ({@link TwsQuery#then}), checked when the query is defined, each refusal naming Spark's error
 * class where Spark has one and saying what to change. Spark's own checks are
 * {@code UnsupportedOperationChecker.checkForStreaming} and
 * {@code checkStreamingQueryGlobalWatermarkLimit}, made when the query starts:
 * <ul>
 * <li>no stateful operator after a legacy function with {@code EventTimeTimeout};</li>
 * <li>at most one {@code mapGroupsWithState}, never with a {@code flatMapGroupsWithState}, and
 * several {@code flatMapGroupsWithState}s only when all are in Append mode (the query's mode then);</li>
 * <li>a legacy {@code EventTimeTimeout} needs an event-time column on its input (checked when the
 * operator is built, {@link GroupsWithState}).</li>
 * </ul>
 * Anything else Spark runs: an operator after one that passes no event-time column (a
 * {@code transformWithState} without the {@code eventTimeColumnName} overload, or a legacy function
 * without {@code EventTimeTimeout}) gets no late-row filter, and after a ProcessingTime-mode
 * operator or a legacy function no watermark (0). twstester refuses besides, as limitations: a
 * {@code withWatermark} on a later operator, initial state on a later operator, and a trigger
 * other than the query's.
 */
final class PlanRules {
    private PlanRules() {
    }

    /** Spark's rules for {@code next} (one or more operators) after {@code query}'s operators. */
    static void requireDownstream(TwsQuery<?, ?, ?> query, TwsQuery<?, ?, ?> next) {
        List<TwsQuery<?, ?, ?>> ops = query.operators();
        TwsQuery<?, ?, ?> last = ops.get(ops.size() - 1);
        requireNoEventTimeTimeout(last);
        if (next.eventTimeColumn().isPresent()) {
            throw new IllegalArgumentException("an operator after another must not have watermark(\"" + next.eventTimeColumn().get()
                    + "\", ...): its watermark comes from the operators before it (Spark fails a withWatermark after a "
                    + "stateful operator that passes a watermark on with [_LEGACY_ERROR_TEMP_3076] at the first batch "
                    + "with a watermark, and twstester does not model one after any); remove it, and give the operator "
                    + "before it outputEventTimeColumn(column) for an event-time column");
        }
        if (next.initialState().isPresent()) {
            throw new IllegalArgumentException("initial state on an operator after the first is not supported by "
                    + "twstester; remove initialState(...) from it");
        }
        if (!sameEncoder(last.outputEncoder(), next.inputEncoder())) {
            throw new IllegalArgumentException("the next operator's input encoder must be the previous one's output "
                    + "encoder: output " + describe(last.outputEncoder()) + ", next input " + describe(next.inputEncoder())
                    + "; pass the same encoder to output(...) and input(...)");
        }
        if (next.triggerIntervalMs() != 0 && next.triggerIntervalMs() != query.triggerIntervalMs()) {
            throw new IllegalArgumentException("the next operator's trigger " + next.trigger() + " differs from the "
                    + "query's " + query.trigger() + "; a query has one trigger: set it on the first operator only");
        }
        List<GroupsWithState<?, ?, ?, ?>> legacy = new ArrayList<>();
        ops.forEach(op -> op.groupsWithState().ifPresent(legacy::add));
        next.operators().forEach(op -> op.groupsWithState().ifPresent(legacy::add));
        requireLegacyFunctionsTogether(legacy);
    }

    /** {@code checkStreamingQueryGlobalWatermarkLimit}: nothing stateful after a legacy EventTimeTimeout. */
    private static void requireNoEventTimeTimeout(TwsQuery<?, ?, ?> last) {
        GroupsWithState<?, ?, ?, ?> legacy = last.groupsWithState().orElse(null);
        if (legacy != null && legacy.timeout().equals(GroupStateTimeout.EventTimeTimeout())) {
            throw GroupsWithState.analysisError("Detected pattern of possible 'correctness' issue due to global "
                    + "watermark. The query contains stateful operation which can emit rows older than the current "
                    + "watermark plus allowed late record delay, which are \"late rows\" in downstream stateful "
                    + "operations and these rows can be discarded.", "a " + legacy.operatorName() + " with "
                    + "EventTimeTimeout must be the query's last operator: append nothing after it, or give it "
                    + "NoTimeout or ProcessingTimeTimeout");
        }
    }

    /** {@code checkForStreaming}'s rules for several legacy functions in one query, whose output mode is theirs. */
    private static void requireLegacyFunctionsTogether(List<GroupsWithState<?, ?, ?, ?>> legacy) {
        long maps = legacy.stream().filter(GroupsWithState::isMapGroupsWithState).count();
        long flatMaps = legacy.size() - maps;
        String keepOne = "keep one legacy function and make the others transformWithState operators";
        if (maps >= 2) {
            throw GroupsWithState.analysisError("Multiple mapGroupsWithStates are not supported on a streaming "
                    + "DataFrames/Datasets", keepOne);
        }
        if (maps > 0 && flatMaps > 0) {
            throw GroupsWithState.analysisError("Mixing mapGroupsWithStates and flatMapGroupsWithStates are not "
                    + "supported on a streaming DataFrames/Datasets", keepOne);
        }
        if (flatMaps >= 2 && legacy.stream().anyMatch(f -> !f.outputMode().equals(OutputMode.Append()))) {
            throw GroupsWithState.analysisError("Multiple flatMapGroupsWithStates are not supported when they are not "
                    + "all in append mode or the output mode is not append on a streaming DataFrames/Datasets",
                    "give every flatMapGroupsWithState OutputMode.Append() (the query then runs in Append), or " + keepOne);
        }
    }

    private static boolean sameEncoder(Encoder<?> out, Encoder<?> in) {
        return out.equals(in) || (out.schema().equals(in.schema()) && out.clsTag().equals(in.clsTag()));
    }

    private static String describe(Encoder<?> encoder) {
        return encoder.clsTag().runtimeClass().getName() + " " + encoder.schema().simpleString();
    }


    /** {@code spark.sql.shuffle.partitions} checked: at least 1. */
    static int requirePartitions(int partitions) {
        if (partitions < 1) {
            throw new IllegalArgumentException("shufflePartitions must be at least 1, was " + partitions);
        }
        return partitions;
    }

    /**
     * The {@code transformWithState(processor, eventTimeColumnName, ...)} overload: EventTime mode
     * ({@code timeMode} null when not set) and a watermark on the input ({@code watermarkColumn}).
     */
    static void requireEventTimeOverload(String outputEventTimeColumn, TimeMode timeMode, String watermarkColumn) {
        if (timeMode != null && !timeMode.equals(TimeMode.EventTime())) {
            throw new IllegalArgumentException("outputEventTimeColumn(\"" + outputEventTimeColumn
                    + "\") uses the transformWithState overload that runs in TimeMode.EventTime(); "
                    + "remove timeMode(" + timeMode + ") or set it to EventTime()");
        }
        if (watermarkColumn == null) {
            throw new IllegalArgumentException("[CANNOT_ASSIGN_EVENT_TIME_COLUMN_WITHOUT_WATERMARK] "
                    + "outputEventTimeColumn(\"" + outputEventTimeColumn + "\") needs a watermark on the "
                    + "input: add watermark(column, delay), or, for an operator after another, pass its builder "
                    + "to then(...) instead of building it");
        }
    }

    /**
     * The event-time column an operator after {@code upstream} reads: a legacy function's (its input's,
     * the last operator's output event-time column), else the query's watermark column (null: none).
     */
    static String watermarkColumnAfter(TwsQuery<?, ?, ?> upstream, boolean legacy) {
        List<TwsQuery<?, ?, ?>> ops = upstream.operators();
        return legacy ? ops.get(ops.size() - 1).outputEventTimeColumn().orElse(null)
                : upstream.eventTimeColumn().orElse(null);
    }

    /** {@code mapValues} on a builder: a transformWithState one with nothing set that reads the rows yet. */
    static void requireMapValuesFirst(GroupsWithState<?, ?, ?, ?> legacy, boolean rowsRead) {
        if (legacy != null) {
            throw new IllegalStateException("mapValues(...) is modelled for transformWithState processors only, not for "
                    + legacy.operatorName() + ": map the values inside the function");
        }
        if (rowsRead) {
            throw new IllegalStateException("call mapValues(...) once, right after TwsQuery.builder(...) and before "
                    + "keyBy(...) and input(...): those read the source rows, whose type mapValues sets");
        }
    }
}
