package dev.twstester.junit;

import java.io.Serializable;

/** A bean with neither equals() nor toString(): the rows of {@code RowsByValueTest}. */
public class Alert implements Serializable {
    private String sensor;
    private long count;

    public Alert() {
    }

    public static Alert of(String sensor, long count) {
        Alert a = new Alert();
        a.sensor = sensor;
        a.count = count;
        return a;
    }

    public String getSensor() {
        return sensor;
    }

    public void setSensor(String sensor) {
        this.sensor = sensor;
    }

    public long getCount() {
        return count;
    }

    public void setCount(long count) {
        this.count = count;
    }
}
