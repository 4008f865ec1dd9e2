package dev.twstester.sim;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ListState;
import org.apache.spark.sql.streaming.MapState;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;

/** The error-matrix processor of the experiments (ProcErr): {@code mode} picks the misuse. */
public class ErrorProcessor extends StatefulProcessor<String, String, String> {
    static final AtomicInteger INITS = new AtomicInteger();

    private final String mode;
    private transient ValueState<Long> v;
    private transient ListState<String> l;
    private transient MapState<String, String> m;
    private transient ValueState<Event> bean;
    public Object nonSerializable;
    public String driverMark = "initial";

    public ErrorProcessor(String mode) {
        this.mode = mode;
        if (mode.equals("nonser")) {
            nonSerializable = new Object() {};
        }
    }

    @Override
    public void init(OutputMode om, TimeMode tm) {
        switch (mode) {
            case "ttl-eventtime" -> v = getHandle().getValueState("v", Encoders.LONG(), new TTLConfig(Duration.ofSeconds(5)));
            case "ttl-negative" -> v = getHandle().getValueState("v", Encoders.LONG(), new TTLConfig(Duration.ofSeconds(-5)));
            case "dup-value" -> {
                getHandle().getValueState("x", Encoders.LONG(), TTLConfig.NONE());
                getHandle().getValueState("x", Encoders.LONG(), TTLConfig.NONE());
            }
            case "dup-map" -> {
                getHandle().getMapState("x", Encoders.STRING(), Encoders.STRING(), TTLConfig.NONE());
                getHandle().getMapState("x", Encoders.STRING(), Encoders.STRING(), TTLConfig.NONE());
            }
            case "dup-value-list" -> {
                getHandle().getValueState("x", Encoders.LONG(), TTLConfig.NONE());
                getHandle().getListState("x", Encoders.STRING(), TTLConfig.NONE());
            }
            case "timer-in-init" -> getHandle().registerTimer(1000);
            case "state-get-in-init" -> {
                v = getHandle().getValueState("v", Encoders.LONG(), TTLConfig.NONE());
                v.get();
            }
            case "boom-init" -> throw new IllegalArgumentException("boom in init");
            case "driverfield" -> {
                if (driverMark.equals("initial")) {
                    driverMark = "set-in-init#" + INITS.incrementAndGet();
                }
            }
            case "bean-null" -> bean = getHandle().getValueState("bean", Encoders.bean(Event.class), TTLConfig.NONE());
            default -> {
                v = getHandle().getValueState("v", Encoders.LONG(), TTLConfig.NONE());
                l = getHandle().getListState("l", Encoders.STRING(), TTLConfig.NONE());
                m = getHandle().getMapState("m", Encoders.STRING(), Encoders.STRING(), TTLConfig.NONE());
            }
        }
    }

    @Override
    public void close() {
        if (mode.equals("close-timer")) {
            getHandle().registerTimer(5);
        }
        if (mode.equals("close-state")) {
            v.get();
        }
    }

    @Override
    public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<String> rows,
            TimerValues t) {
        List<String> in = Log.list(rows);
        switch (mode) {
            case "getstate-in-handle" -> getHandle().getValueState("late", Encoders.LONG(), TTLConfig.NONE());
            case "timer-none-mode" -> getHandle().registerTimer(5);
            case "list-timers-none-mode" -> getHandle().listTimers();
            case "list-null" -> l.appendValue(null);
            case "list-empty" -> l.put(new String[0]);
            case "list-put-null-elem" -> l.put(new String[] {"a", null});
            case "map-null-value" -> m.updateValue("k", null);
            case "map-null-key" -> m.getValue(null);
            case "value-null" -> {
                v.update(null);
                Log.add("value-null ok get=" + v.get() + " exists=" + v.exists());
            }
            case "boom" -> {
                v.update(42L);
                throw new IllegalStateException("user boom");
            }
            case "boom-checked" -> {
                v.update(42L);
                throw dev.twstester.internal.Sneaky.raise(new java.io.IOException("checked boom"));
            }
            case "boom-error" -> {
                v.update(42L);
                throw new AssertionError("user assertion");
            }
            case "driverfield" -> Log.add("executor sees driverMark=" + driverMark);
            case "bean-null" -> bean.update(null);
            case "lazy-boom" -> {
                return new scala.collection.AbstractIterator<String>() {
                    @Override
                    public boolean hasNext() {
                        return true;
                    }

                    @Override
                    public String next() {
                        throw new IllegalStateException("lazy boom");
                    }
                };
            }
            case "deleteIfExists-in-handle" -> getHandle().deleteIfExists("v");
            case "plain" -> {
                Long c = v.get();
                v.update(c == null ? in.size() : c + in.size());
            }
            default -> { }
        }
        return Log.it(List.of("ok:" + key));
    }
}
