package dev.twstester.sim;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.spark.sql.Encoder;

import dev.twstester.TwsQuery;
import dev.twstester.internal.RowCodec;

/** How each encoder of a simulated query runs ({@link TwsSimulator#encoderPaths()}). */
final class EncoderPaths {
    private EncoderPaths() {
    }

    static Map<String, String> of(List<Operator<?, ?, ?>> operators) {
        Map<String, String> paths = new LinkedHashMap<>();
        for (Operator<?, ?, ?> op : operators) {
            String prefix = op.index() == 0 ? "" : "operator " + op.index() + " ";
            TwsQuery<?, ?, ?> def = op.query();
            paths.put(prefix + "key", path(def.keyEncoder()));
            paths.put(prefix + "input", path(def.inputEncoder()));
            paths.put(prefix + "output", path(def.outputEncoder()));
            def.initialState().ifPresent(initial -> paths.put(prefix + "initial state", path(initial.encoder())));
            op.store().variables().forEach((name, variable) -> {
                Encoder<?>[] encoders = variable.encoders;
                if (encoders.length == 1) {
                    paths.put(prefix + "state " + name, path(encoders[0]));
                } else {
                    paths.put(prefix + "state " + name + " key", path(encoders[0]));
                    paths.put(prefix + "state " + name + " value", path(encoders[1]));
                }
            });
        }
        return paths;
    }

    private static String path(Encoder<?> encoder) {
        return RowCodec.of(encoder).path();
    }
}
