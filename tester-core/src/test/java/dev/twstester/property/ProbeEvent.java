package dev.twstester.property;

import java.io.Serializable;
import java.sql.Timestamp;
import java.util.Objects;

/** Input bean of the property tests: key, event time, kind ("add" or "checkout"). */
public class ProbeEvent implements Serializable {
    static final String[] KINDS = {"add", "checkout"};

    private String key;
    private Timestamp ts;
    private String kind;

    public ProbeEvent() {}

    public ProbeEvent(String key, long tsMs, String kind) {
        this.key = key;
        this.ts = new Timestamp(tsMs);
        this.kind = kind;
    }

    /** The {@link EventFactory} of the tests. */
    static ProbeEvent of(String key, long eventTimeMs, int variant) {
        return new ProbeEvent(key, eventTimeMs, KINDS[variant % KINDS.length]);
    }

    public String getKey() {
        return key;
    }

    public void setKey(String key) {
        this.key = key;
    }

    public Timestamp getTs() {
        return ts;
    }

    public void setTs(Timestamp ts) {
        this.ts = ts;
    }

    public String getKind() {
        return kind;
    }

    public void setKind(String kind) {
        this.kind = kind;
    }

    /** A hand-written JSON line (the tests must not depend on another package's JSON support). */
    String toJson() {
        return "{\"key\":\"" + key + "\",\"ts\":" + ts.getTime() + ",\"kind\":\"" + kind + "\"}";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ProbeEvent e && Objects.equals(key, e.key) && Objects.equals(ts, e.ts)
                && Objects.equals(kind, e.kind);
    }

    @Override
    public int hashCode() {
        return Objects.hash(key, ts, kind);
    }

    @Override
    public String toString() {
        return key + "@" + (ts == null ? "null" : ts.getTime()) + ":" + kind;
    }
}
