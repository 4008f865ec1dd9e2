package dev.twstester.samples.bench;

import java.io.Serializable;
import java.util.Objects;

/** A small bean state for the memory benchmark: the last row seen and how many rows a key had. */
public class Tally implements Serializable {
    private static final long serialVersionUID = 1L;

    private String last;
    private long count;

    public Tally() {
    }

    public Tally(String last, long count) {
        this.last = last;
        this.count = count;
    }

    public String getLast() {
        return last;
    }

    public void setLast(String last) {
        this.last = last;
    }

    public long getCount() {
        return count;
    }

    public void setCount(long count) {
        this.count = count;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Tally t && count == t.count && Objects.equals(last, t.last);
    }

    @Override
    public int hashCode() {
        return Objects.hash(last, count);
    }

    @Override
    public String toString() {
        return "Tally{last=" + last + ", count=" + count + "}";
    }
}
