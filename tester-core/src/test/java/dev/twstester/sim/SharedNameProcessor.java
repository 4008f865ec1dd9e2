package dev.twstester.sim;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ListState;
import org.apache.spark.sql.streaming.MapState;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.Trigger;
import org.apache.spark.sql.streaming.ValueState;

import dev.twstester.TwsQuery;

import scala.jdk.javaapi.CollectionConverters;

/**
 * A value (or list) variable and then a map variable of one name, "x", which Spark's driver pass
 * accepts. {@code first} is "value" or "list"; {@code ttl} gives the map (and the first) a TTL of
 * 60 s. Each input row is a comma-free list of operations joined by '+' ("value-update",
 * "map-update", "map-get", "map-keys", ...); each call emits "key:op=result;op=result...".
 */
public class SharedNameProcessor extends StatefulProcessor<String, String, String> {
    private final String first;
    private final boolean ttl;
    private transient ValueState<Long> value;
    private transient ListState<Long> list;
    private transient MapState<String, Long> map;

    public SharedNameProcessor(String first, boolean ttl) {
        this.first = first;
        this.ttl = ttl;
    }

    /** Rows "key:op+op+..."; the key is the text before ':'. */
    public static TwsQuery<String, String, String> query(String first, boolean ttl) {
        return TwsQuery.builder(() -> new SharedNameProcessor(first, ttl))
                .keyBy(s -> s.substring(0, s.indexOf(':')), Encoders.STRING())
                .input(Encoders.STRING()).output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime()).outputMode(OutputMode.Update())
                .trigger(Trigger.ProcessingTime(1000))
                .build();
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        TTLConfig config = ttl ? new TTLConfig(Duration.ofSeconds(60)) : TTLConfig.NONE();
        if (first.equals("value")) {
            value = getHandle().getValueState("x", Encoders.LONG(), config);
        } else {
            list = getHandle().getListState("x", Encoders.LONG(), config);
        }
        map = getHandle().getMapState("x", Encoders.STRING(), Encoders.LONG(), config);
    }

    @Override
    public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<String> rows,
            TimerValues timerValues) {
        List<String> out = new ArrayList<>();
        while (rows.hasNext()) {
            String row = rows.next();
            List<String> results = new ArrayList<>();
            for (String op : row.substring(row.indexOf(':') + 1).split("\\+")) {
                results.add(op + "=" + apply(op));
            }
            out.add(key + ":" + String.join(";", results));
        }
        return CollectionConverters.asScala(out.iterator());
    }

    private String apply(String op) {
        return switch (op) {
            case "value-update" -> { value.update(5L); yield "ok"; }
            case "value-get" -> String.valueOf(value.get());
            case "value-clear" -> { value.clear(); yield "ok"; }
            case "list-append" -> { list.appendValue(5L); yield "ok"; }
            case "list-get" -> CollectionConverters.asJava(list.get()).hasNext() ? "some" : "none";
            case "list-clear" -> { list.clear(); yield "ok"; }
            case "map-update" -> { map.updateValue("k", 7L); yield "ok"; }
            case "map-get" -> String.valueOf(map.getValue("k"));
            case "map-contains" -> String.valueOf(map.containsKey("k"));
            case "map-remove" -> { map.removeKey("k"); yield "ok"; }
            case "map-exists" -> String.valueOf(map.exists());
            case "map-keys" -> String.valueOf(map.keys().hasNext());
            case "map-values" -> String.valueOf(map.values().hasNext());
            case "map-iterator" -> String.valueOf(map.iterator().hasNext());
            case "map-clear" -> { map.clear(); yield "ok"; }
            default -> throw new IllegalArgumentException("unknown op " + op);
        };
    }
}
