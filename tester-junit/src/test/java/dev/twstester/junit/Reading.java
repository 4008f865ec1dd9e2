package dev.twstester.junit;

import java.io.Serializable;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.StatefulProcessor;
import org.apache.spark.sql.streaming.TimeMode;

import dev.twstester.TwsQuery;

/** A sensor reading: the input bean of the tests. */
public class Reading implements Serializable {

    /** The tests' event-time query over readings: keyed by sensor, string output, watermark on ts delayed 5 s. */
    static TwsQuery<String, Reading, String> eventTimeQuery(
            Supplier<? extends StatefulProcessor<String, Reading, String>> processor, OutputMode outputMode) {
        return TwsQuery.builder(processor)
                .keyBy(Reading::getSensor, Encoders.STRING())
                .input(Encoders.bean(Reading.class))
                .output(Encoders.STRING())
                .timeMode(TimeMode.EventTime())
                .outputMode(outputMode)
                .watermark("ts", Duration.ofSeconds(5))
                .build();
    }
    private String sensor;
    private Timestamp ts;
    private int kind;

    public Reading() {}

    public Reading(String sensor, long tsMs, int kind) {
        this.sensor = sensor;
        this.ts = new Timestamp(tsMs);
        this.kind = kind;
    }

    public String getSensor() {
        return sensor;
    }

    public void setSensor(String sensor) {
        this.sensor = sensor;
    }

    public Timestamp getTs() {
        return ts;
    }

    public void setTs(Timestamp ts) {
        this.ts = ts;
    }

    public int getKind() {
        return kind;
    }

    public void setKind(int kind) {
        this.kind = kind;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Reading r && Objects.equals(sensor, r.sensor) && Objects.equals(ts, r.ts) && kind == r.kind;
    }

    @Override
    public int hashCode() {
        return Objects.hash(sensor, ts, kind);
    }

    @Override
    public String toString() {
        return sensor + "@" + (ts == null ? null : ts.toInstant()) + "#" + kind;
    }
}
