package dev.twstester.junit;

import java.io.Serializable;
import java.sql.Timestamp;
import java.util.Objects;

/** A sensor reading: the input bean of the tests. */
public class Reading implements Serializable {
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
