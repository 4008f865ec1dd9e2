package dev.twstester.property;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.TTLConfig;
import org.apache.spark.sql.streaming.TimerValues;
import org.apache.spark.sql.streaming.ValueState;

import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.sim.TwsSimulator;

import scala.jdk.javaapi.CollectionConverters;

/** A tiny processor for the property tests: counts rows per key and emits "key:kind:count" per row. */
public class ProbeProcessor extends StatefulProcessor<String, ProbeEvent, String> {
    protected transient ValueState<Long> count;

    @Override
    public void init(OutputMode outputMode, TimeMode timeMode) {
        count = getHandle().getValueState("count", Encoders.LONG(), TTLConfig.NONE());
    }

    @Override
    public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<ProbeEvent> rows,
            TimerValues timerValues) {
        List<String> out = new ArrayList<>();
        long n = count.exists() ? count.get() : 0L;
        while (rows.hasNext()) {
            ProbeEvent e = rows.next();
            n++;
            out.add(key + ":" + e.getKind() + ":" + n);
        }
        count.update(n);
        return CollectionConverters.asScala(out.iterator());
    }

    /** The query: keyed by {@code key}, watermark on {@code ts} when {@code delay} is not null. */
    static TwsQuery<String, ProbeEvent, String> query(TimeMode mode, Duration delay) {
        TwsQuery.Builder<String, ProbeEvent, String> b = TwsQuery.builder(ProbeProcessor::new)
                .keyBy(ProbeEvent::getKey, Encoders.STRING())
                .input(Encoders.bean(ProbeEvent.class))
                .output(Encoders.STRING())
                .timeMode(mode)
                .outputMode(OutputMode.Update());
        if (delay != null) {
            b.watermark("ts", delay);
        }
        return b.build();
    }

    /** Replays {@code gen} on a fresh simulator of {@link #query} (with the scenario's shuffle partitions, if any). */
    static RunResult<String, ProbeEvent, String> run(GenScenario gen) {
        TwsQuery<String, ProbeEvent, String> query = gen.applyTo(query(gen.timeMode(), gen.watermarkDelay().orElse(null)));
        return new TwsSimulator<>(query).run(gen.toScenario(ProbeEvent::of));
    }
}
