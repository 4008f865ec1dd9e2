package dev.twstester.io;

import java.io.Serializable;
import java.sql.Date;
import java.sql.Timestamp;
import java.util.Objects;

/** A bean with Spark time fields: a sensor's reading. */
public class Reading implements Serializable {
    private String sensor;
    private Timestamp ts;
    private Date day;
    private double value;

    public Reading() {}

    public Reading(String sensor, Timestamp ts, Date day, double value) {
        this.sensor = sensor;
        this.ts = ts;
        this.day = day;
        this.value = value;
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

    public Date getDay() {
        return day;
    }

    public void setDay(Date day) {
        this.day = day;
    }

    public double getValue() {
        return value;
    }

    public void setValue(double value) {
        this.value = value;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Reading r && Objects.equals(sensor, r.sensor) && Objects.equals(ts, r.ts)
                && Objects.equals(day, r.day) && value == r.value;
    }

    @Override
    public int hashCode() {
        return Objects.hash(sensor, ts, day, value);
    }

    @Override
    public String toString() {
        return sensor + "@" + (ts == null ? null : ts.toInstant()) + "=" + value;
    }
}
