package dev.twstester.sim;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;

/**
 * Processors Spark cannot ship to its tasks (docs/semantics.md 2.3, "Task not serializable"): a field holding a
 * non-serializable object directly, through a serializable holder, through lambdas, or set in init().
 * {@code toString()}s are fixed so the serialization stacks can be compared as text.
 */
public final class NonSerializableProcessors {
    private NonSerializableProcessors() {}

    /** Not Serializable: a connection or client a processor might keep. */
    public static final class Client {
        @Override
        public String toString() {
            return "Client";
        }
    }

    /** Serializable, but holds a Client. */
    public static final class Holder implements Serializable {
        private final String name = "holder";
        private final Client client = new Client();

        @Override
        public String toString() {
            return "Holder";
        }
    }

    /** A function type that is Serializable, so its lambdas are too (and capture by writeReplace). */
    public interface SerializableFunction extends Function<String, String>, Serializable {}

    /** Emits the key; the shapes differ only in their fields. */
    public abstract static class Base extends StatefulProcessor<String, String, String> {
        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {}

        @Override
        public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<String> rows,
                TimerValues timerValues) {
            return Log.it(List.of(key));
        }

        @Override
        public String toString() {
            return getClass().getSimpleName();
        }
    }

    /** {@code client} holds a Client directly. */
    public static final class DirectField extends Base {
        private final String label = "direct";
        private final Client client = new Client();
    }

    /** {@code holder} is Serializable; its {@code client} is not. */
    public static final class NestedField extends Base {
        private final Holder holder = new Holder();
    }

    /** {@code format} holds a lambda of a plain (not Serializable) functional interface. */
    public static final class LambdaField extends Base {
        private final Function<String, String> format = s -> "[" + s + "]";
    }

    /** {@code format} holds a Serializable lambda that captures a Client. */
    public static final class CapturingLambdaField extends Base {
        private final SerializableFunction format = capture(new Client());

        private static SerializableFunction capture(Client client) {
            return s -> client + s;
        }
    }

    /** {@code items} is an ArrayList (its own writeObject) holding a Client. */
    public static final class ListField extends Base {
        private final List<Object> items = new ArrayList<>(List.of("a", new Client()));
    }

    /** {@code clients} is an array holding a Client after a null. */
    public static final class ArrayField extends Base {
        private final Object[] clients = {null, new Client()};
    }

    /** {@code client} is null when constructed and set in init(), which Spark also runs on the driver. */
    public static final class SetInInit extends Base {
        private Client client;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            client = new Client();
        }
    }

    /** {@code client} is transient and created in init(): serializable, the fix the message suggests. */
    public static final class TransientField extends Base {
        private transient Client client;

        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
            client = new Client();
        }
    }
}
