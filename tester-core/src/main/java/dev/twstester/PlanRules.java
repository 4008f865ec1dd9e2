package dev.twstester;

import org.apache.spark.sql.Encoder;

/**
 * What Spark requires of a stateful operator that follows another in one query
 * ({@link TwsQuery#then}), checked when the query is defined, each refusal saying what to change.
 */
final class PlanRules {
    private PlanRules() {
    }

    /** Spark's rules for {@code next} after {@code last}, the last operator so far. */
    static void requireDownstream(TwsQuery<?, ?, ?> last, TwsQuery<?, ?, ?> next) {
        if (last.outputEventTimeColumn().isEmpty()) {
            throw new IllegalArgumentException("a stateful operator can follow only a transformWithState that uses the "
                    + "eventTimeColumnName overload: add outputEventTimeColumn(column) to the operator before it (a "
                    + "timestamp column of its output), so the next operator gets an event-time column and the watermark");
        }
        if (next.eventTimeColumn().isPresent()) {
            throw new IllegalArgumentException("an operator after another must not have watermark(\"" + next.eventTimeColumn().get()
                    + "\", ...): its watermark comes from the previous operator's outputEventTimeColumn(\""
                    + last.outputEventTimeColumn().get() + "\"), and Spark rejects a withWatermark after a stateful operator; "
                    + "remove it");
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
        if (next.triggerIntervalMs() != 0 && next.triggerIntervalMs() != last.triggerIntervalMs()) {
            throw new IllegalArgumentException("the next operator's trigger " + next.trigger() + " differs from the "
                    + "query's " + last.trigger() + "; a query has one trigger: set it on the first operator only");
        }
    }

    private static boolean sameEncoder(Encoder<?> out, Encoder<?> in) {
        return out.equals(in) || (out.schema().equals(in.schema()) && out.clsTag().equals(in.clsTag()));
    }

    private static String describe(Encoder<?> encoder) {
        return encoder.clsTag().runtimeClass().getName() + " " + encoder.schema().simpleString();
    }

}
