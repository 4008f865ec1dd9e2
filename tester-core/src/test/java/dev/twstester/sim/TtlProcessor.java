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
import org.apache.spark.sql.streaming.ValueState;

/** TTL 3000 ms on a value, a list and a map; rows are "key,command"; "get" emits what is visible. */
public class TtlProcessor extends StatefulProcessor<String, String, String> {
    private transient ValueState<String> value;
    private transient ListState<String> list;
    private transient MapState<String, String> map;

    @Override
    public void init(OutputMode om, TimeMode tm) {
        TTLConfig ttl = new TTLConfig(Duration.ofMillis(3000));
        value = getHandle().getValueState("value", Encoders.STRING(), ttl);
        list = getHandle().getListState("list", Encoders.STRING(), ttl);
        map = getHandle().getMapState("map", Encoders.STRING(), Encoders.STRING(), ttl);
    }

    @Override
    public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<String> rows,
            TimerValues t) {
        List<String> out = new ArrayList<>();
        for (String row : Log.list(rows)) {
            String cmd = row.substring(row.indexOf(',') + 1);
            String arg = cmd.contains(":") ? cmd.substring(cmd.indexOf(':') + 1) : "";
            switch (cmd.contains(":") ? cmd.substring(0, cmd.indexOf(':')) : cmd) {
                case "set" -> value.update(arg);
                case "append" -> list.appendValue(arg);
                case "put" -> list.put(arg.split(";"));
                case "mput" -> map.updateValue(arg.split("=")[0], arg.split("=")[1]);
                case "get" -> out.add(t.getCurrentProcessingTimeInMs() + " value=" + value.get() + "/" + value.exists()
                        + " list=" + Log.list(list.get()) + "/" + list.exists()
                        + " map=" + Log.list(map.iterator()) + "/" + map.exists());
                default -> throw new IllegalArgumentException(cmd);
            }
        }
        return Log.it(out);
    }
}
