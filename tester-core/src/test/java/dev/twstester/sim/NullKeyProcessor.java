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
 * One state or timer access per input key, for the null grouping key: {@code access} names it
 * ("none", "value-get", "list-append", "map-keys", "timer-register", "ttl-value-get", ...). Each call
 * emits {@code "key:access=result"} after the access. Variables: value "v", list "l", map "m"
 * (with TTL 60 s when the access starts with "ttl-").
 */
public class NullKeyProcessor extends StatefulProcessor<String, String, String> {
    private final String access;
    private transient ValueState<Long> v;
    private transient ListState<String> l;
    private transient MapState<String, Long> m;

    public NullKeyProcessor(String access) {
        this.access = access;
    }

    /** The processing-time query of {@code access} whose key function gives a null key for rows "null,...". */
    public static TwsQuery<String, String, String> query(String access) {
        return TwsQuery.builder(() -> new NullKeyProcessor(access))
                .keyBy(s -> s.startsWith("null,") ? null : s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING()).output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime()).outputMode(OutputMode.Update())
                .trigger(Trigger.ProcessingTime(1000))
                .build();
    }

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        TTLConfig ttl = access.startsWith("ttl-") ? new TTLConfig(Duration.ofSeconds(60)) : TTLConfig.NONE();
        v = getHandle().getValueState("v", Encoders.LONG(), ttl);
        l = getHandle().getListState("l", Encoders.STRING(), ttl);
        m = getHandle().getMapState("m", Encoders.STRING(), Encoders.LONG(), ttl);
    }

    @Override
    public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<String> rows,
            TimerValues timerValues) {
        int n = 0;
        while (rows.hasNext()) {
            rows.next();
            n++;
        }
        String result = access(access.replace("ttl-", ""), timerValues);
        return CollectionConverters.asScala(List.of(key + ":" + access + "=" + result + " rows=" + n).iterator());
    }

    private String access(String what, TimerValues timerValues) {
        return switch (what) {
            case "none" -> "-";
            case "value-get" -> String.valueOf(v.get());
            case "value-exists" -> String.valueOf(v.exists());
            case "value-update" -> { v.update(1L); yield "ok"; }
            case "value-clear" -> { v.clear(); yield "ok"; }
            case "list-get" -> list();
            case "list-exists" -> String.valueOf(l.exists());
            case "list-append" -> { l.appendValue("x"); yield "ok"; }
            case "list-put" -> { l.put(new String[] {"x"}); yield "ok"; }
            case "list-clear" -> { l.clear(); yield "ok"; }
            case "map-get" -> String.valueOf(m.getValue("k"));
            case "map-contains" -> String.valueOf(m.containsKey("k"));
            case "map-update" -> { m.updateValue("k", 1L); yield "ok"; }
            case "map-keys" -> String.valueOf(m.keys().hasNext());
            case "map-iterator" -> String.valueOf(m.iterator().hasNext());
            case "map-remove" -> { m.removeKey("k"); yield "ok"; }
            case "map-clear" -> { m.clear(); yield "ok"; }
            case "timer-register" -> { getHandle().registerTimer(timerValues.getCurrentProcessingTimeInMs() + 60_000); yield "ok"; }
            case "timer-list" -> String.valueOf(getHandle().listTimers().hasNext());
            case "timer-delete" -> { getHandle().deleteTimer(1000); yield "ok"; }
            default -> throw new IllegalArgumentException("unknown access " + what);
        };
    }

    private String list() {
        List<String> out = new ArrayList<>();
        CollectionConverters.asJava(l.get()).forEachRemaining(out::add);
        return out.toString();
    }
}
