package dev.twstester.sim;

import java.io.Serializable;
import java.sql.Timestamp;
import java.util.Objects;

/** The experiments' output bean. */
public class OutEvent implements Serializable {
    private String key;
    private Timestamp outTs;
    private String what;

    public OutEvent() {}

    public OutEvent(String key, long ts, String what) {
        this.key = key;
        this.outTs = new Timestamp(ts);
        this.what = what;
    }

    public String getKey() {
        return key;
    }

    public void setKey(String k) {
        key = k;
    }

    public Timestamp getOutTs() {
        return outTs;
    }

    public void setOutTs(Timestamp t) {
        outTs = t;
    }

    public String getWhat() {
        return what;
    }

    public void setWhat(String w) {
        what = w;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OutEvent e && Objects.equals(key, e.key) && Objects.equals(outTs, e.outTs)
                && Objects.equals(what, e.what);
    }

    @Override
    public int hashCode() {
        return Objects.hash(key, outTs, what);
    }

    @Override
    public String toString() {
        return key + "@" + outTs.getTime() + ":" + what;
    }
}
