package dev.twstester.sim;

import java.io.Serializable;
import java.sql.Timestamp;
import java.util.Objects;

/** The experiments' input bean: key, event time, command. */
public class Event implements Serializable {
    private String key;
    private Timestamp ts;
    private String cmd;

    public Event() {}

    public Event(String key, long tsMs, String cmd) {
        this.key = key;
        this.ts = new Timestamp(tsMs);
        this.cmd = cmd;
    }

    public String getKey() {
        return key;
    }

    public void setKey(String k) {
        key = k;
    }

    public Timestamp getTs() {
        return ts;
    }

    public void setTs(Timestamp t) {
        ts = t;
    }

    public String getCmd() {
        return cmd;
    }

    public void setCmd(String c) {
        cmd = c;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Event e && Objects.equals(key, e.key) && Objects.equals(ts, e.ts) && Objects.equals(cmd, e.cmd);
    }

    @Override
    public int hashCode() {
        return Objects.hash(key, ts, cmd);
    }

    @Override
    public String toString() {
        return key + "@" + (ts == null ? "null" : ts.getTime()) + ":" + cmd;
    }
}
