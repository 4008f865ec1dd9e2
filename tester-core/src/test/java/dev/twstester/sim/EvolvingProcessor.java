package dev.twstester.sim;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.ListState;
import org.apache.spark.sql.streaming.MapState;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;

import scala.jdk.javaapi.CollectionConverters;

/**
 * One processor, many versions: a value state "c" of a {@link Counters} bean (or none), a state
 * "n" counting rows (a {@code Long} value, an {@code Integer} value, a list, a map, with or without
 * TTL, or none) and optionally a list "log" of the rows. Every input row emits what the key's state
 * reads before the row ({@code "key c=... n=... log=..."}) and then bumps each variable, so a restart
 * with another version shows how the new version reads the old state.
 */
public class EvolvingProcessor extends StatefulProcessor<String, String, String> {
    private final String cSpec;
    private final String nSpec;
    private final boolean log;
    private transient ValueState<Counters.Counter> c;
    private transient ValueState<Object> nValue;
    private transient ListState<Long> nList;
    private transient MapState<String, Long> nMap;
    private transient ListState<String> logList;

    /**
     * @param cSpec "none" or a bean of {@link Counters} ("C1" ... "C7")
     * @param nSpec "none", "long", "int", "short", "byte", "list", "map", or "long-ttl:MS" (a Long value with TTL MS)
     * @param log whether the version has the list "log"
     */
    public EvolvingProcessor(String cSpec, String nSpec, boolean log) {
        this.cSpec = cSpec;
        this.nSpec = nSpec;
        this.log = log;
    }

    /** "C1/long" style: C spec, N spec and "+log" when the version has the log. */
    public static EvolvingProcessor of(String spec) {
        String[] parts = spec.split("/");
        boolean log = parts[1].endsWith("+log");
        return new EvolvingProcessor(parts[0], parts[1].replace("+log", ""), log);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        if (!cSpec.equals("none")) {
            Encoder encoder = Encoders.bean(beanClass(cSpec));
            c = getHandle().getValueState("c", encoder, TTLConfig.NONE());
        }
        if (nSpec.equals("long")) {
            nValue = (ValueState) getHandle().getValueState("n", Encoders.LONG(), TTLConfig.NONE());
        } else if (nSpec.equals("int")) {
            nValue = (ValueState) getHandle().getValueState("n", Encoders.INT(), TTLConfig.NONE());
        } else if (nSpec.equals("short")) {
            nValue = (ValueState) getHandle().getValueState("n", Encoders.SHORT(), TTLConfig.NONE());
        } else if (nSpec.equals("byte")) {
            nValue = (ValueState) getHandle().getValueState("n", Encoders.BYTE(), TTLConfig.NONE());
        } else if (nSpec.startsWith("long-ttl:")) {
            TTLConfig ttl = new TTLConfig(Duration.ofMillis(Long.parseLong(nSpec.substring(9))));
            nValue = (ValueState) getHandle().getValueState("n", Encoders.LONG(), ttl);
        } else if (nSpec.equals("list")) {
            nList = getHandle().getListState("n", Encoders.LONG(), TTLConfig.NONE());
        } else if (nSpec.equals("map")) {
            nMap = getHandle().getMapState("n", Encoders.STRING(), Encoders.LONG(), TTLConfig.NONE());
        }
        if (log) {
            logList = getHandle().getListState("log", Encoders.STRING(), TTLConfig.NONE());
        }
    }

    static Class<?> beanClass(String name) {
        try {
            return Class.forName(Counters.class.getName() + "$" + name);
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("no bean " + name, e);
        }
    }

    @Override
    public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<String> rows,
            TimerValues timerValues) {
        List<String> out = new ArrayList<>();
        while (rows.hasNext()) {
            String row = rows.next();
            StringBuilder read = new StringBuilder(key);
            if (c != null) {
                Counters.Counter old = c.get();
                read.append(" c=").append(old == null ? "-" : old);
                c.update(old == null ? first(cSpec) : old.bump());
            }
            if (nValue != null) {
                Object old = nValue.get();
                read.append(" n=").append(old == null ? "-" : old);
                if (nSpec.equals("int")) {
                    nValue.update(old == null ? 1 : ((Integer) old) + 1);
                } else if (nSpec.equals("short")) {
                    nValue.update(old == null ? (short) 1 : (short) ((Short) old + 1));
                } else if (nSpec.equals("byte")) {
                    nValue.update(old == null ? (byte) 1 : (byte) ((Byte) old + 1));
                } else {
                    nValue.update(old == null ? 1L : ((Long) old) + 1);
                }
            } else if (nList != null) {
                List<Long> old = new ArrayList<>();
                CollectionConverters.asJava(nList.get()).forEachRemaining(old::add);
                read.append(" n=").append(old);
                nList.appendValue((long) old.size() + 1);
            } else if (nMap != null) {
                Long old = nMap.getValue("k");
                read.append(" n=").append(old == null ? "-" : "{k=" + old + "}");
                nMap.updateValue("k", old == null ? 1L : old + 1);
            }
            if (logList != null) {
                List<String> old = new ArrayList<>();
                CollectionConverters.asJava(logList.get()).forEachRemaining(old::add);
                read.append(" log=").append(old);
                logList.appendValue(row);
            }
            out.add(read.toString());
        }
        return CollectionConverters.asScala(out.iterator());
    }

    private static Counters.Counter first(String spec) {
        try {
            return (Counters.Counter) beanClass(spec).getMethod("first").invoke(null);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
