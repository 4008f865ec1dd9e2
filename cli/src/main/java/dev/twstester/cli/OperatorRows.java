package dev.twstester.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.apache.spark.sql.Encoder;

import dev.twstester.TwsQuery;
import dev.twstester.io.EncoderRows;

/**
 * The rows of each stateful operator's keys, inputs and outputs ({@link EncoderRows} of its
 * encoders), made when first needed: a replay without outputs or late rows needs none of them.
 * Operator 0's inputs are the query's, the last operator's outputs the query's.
 */
final class OperatorRows {
    private final List<TwsQuery<?, ?, ?>> operators;
    private final List<EncoderRows<Object>> keys = new ArrayList<>();
    private final List<EncoderRows<Object>> inputs = new ArrayList<>();
    private final List<EncoderRows<Object>> outputs = new ArrayList<>();

    OperatorRows(TwsQuery<?, ?, ?> query) {
        this.operators = query.operators();
        for (int i = 0; i < operators.size(); i++) {
            keys.add(null);
            inputs.add(null);
            outputs.add(null);
        }
    }

    /** The number of stateful operators. */
    int count() {
        return operators.size();
    }

    EncoderRows<Object> keys(int operator) {
        return rows(keys, operator, TwsQuery::keyEncoder);
    }

    EncoderRows<Object> inputs(int operator) {
        return rows(inputs, operator, TwsQuery::inputEncoder);
    }

    EncoderRows<Object> outputs(int operator) {
        return rows(outputs, operator, TwsQuery::outputEncoder);
    }

    @SuppressWarnings("unchecked")
    private EncoderRows<Object> rows(List<EncoderRows<Object>> made, int operator,
            Function<TwsQuery<?, ?, ?>, Encoder<?>> encoder) {
        if (made.get(operator) == null) {
            made.set(operator, EncoderRows.of((Encoder<Object>) encoder.apply(operators.get(operator))));
        }
        return made.get(operator);
    }
}
