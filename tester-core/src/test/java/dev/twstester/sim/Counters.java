package dev.twstester.sim;

import java.io.Serializable;
import java.util.Objects;

/** Versions of a state value bean, for restarts with a new processor version (see {@link EvolvingProcessor}). */
public final class Counters {
    private Counters() {}

    /** A value that the processor replaces by its next version of itself on every input row. */
    public interface Counter extends Serializable {
        Counter bump();
    }

    /** The first version: a boxed count and a name. */
    public static class C1 implements Counter {
        private Integer count;
        private String name;

        public C1() {}

        public C1(Integer count, String name) {
            this.count = count;
            this.name = name;
        }

        public Integer getCount() { return count; }

        public void setCount(Integer v) { count = v; }

        public String getName() { return name; }

        public void setName(String v) { name = v; }

        /** The value a key starts with. */
        public static C1 first() {
            return new C1(1, "v1");
        }

        @Override
        public C1 bump() {
            return new C1((count == null ? -100 : count + 1), name);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof C1 x && Objects.equals(count, x.count) && Objects.equals(name, x.name);
        }

        @Override
        public int hashCode() {
            return Objects.hash(count, name);
        }

        @Override
        public String toString() {
            return "C1{" + "count=" + count + ", " + "name=" + name + "}";
        }
    }

    /** C1 with the count widened to Long and a field added. */
    public static class C2 implements Counter {
        private Long count;
        private String name;
        private String note;

        public C2() {}

        public C2(Long count, String name, String note) {
            this.count = count;
            this.name = name;
            this.note = note;
        }

        public Long getCount() { return count; }

        public void setCount(Long v) { count = v; }

        public String getName() { return name; }

        public void setName(String v) { name = v; }

        public String getNote() { return note; }

        public void setNote(String v) { note = v; }

        /** The value a key starts with. */
        public static C2 first() {
            return new C2(1L, "v2", "note");
        }

        @Override
        public C2 bump() {
            return new C2((count == null ? -100L : count + 1), name, (note == null ? "was-null" : note));
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof C2 x && Objects.equals(count, x.count) && Objects.equals(name, x.name) && Objects.equals(note, x.note);
        }

        @Override
        public int hashCode() {
            return Objects.hash(count, name, note);
        }

        @Override
        public String toString() {
            return "C2{" + "count=" + count + ", " + "name=" + name + ", " + "note=" + note + "}";
        }
    }

    /** C1 with the name removed. */
    public static class C3 implements Counter {
        private Integer count;

        public C3() {}

        public C3(Integer count) {
            this.count = count;
        }

        public Integer getCount() { return count; }

        public void setCount(Integer v) { count = v; }

        /** The value a key starts with. */
        public static C3 first() {
            return new C3(1);
        }

        @Override
        public C3 bump() {
            return new C3((count == null ? -100 : count + 1));
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof C3 x && Objects.equals(count, x.count);
        }

        @Override
        public int hashCode() {
            return Objects.hash(count);
        }

        @Override
        public String toString() {
            return "C3{" + "count=" + count + "}";
        }
    }

    /** C1 with the count changed to a String. */
    public static class C4 implements Counter {
        private String count;
        private String name;

        public C4() {}

        public C4(String count, String name) {
            this.count = count;
            this.name = name;
        }

        public String getCount() { return count; }

        public void setCount(String v) { count = v; }

        public String getName() { return name; }

        public void setName(String v) { name = v; }

        /** The value a key starts with. */
        public static C4 first() {
            return new C4("1", "v4");
        }

        @Override
        public C4 bump() {
            return new C4(count + "+", name);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof C4 x && Objects.equals(count, x.count) && Objects.equals(name, x.name);
        }

        @Override
        public int hashCode() {
            return Objects.hash(count, name);
        }

        @Override
        public String toString() {
            return "C4{" + "count=" + count + ", " + "name=" + name + "}";
        }
    }

    /** C1 with the count renamed to cnt (same position in the schema: fields are sorted by name). */
    public static class C5 implements Counter {
        private Integer cnt;
        private String name;

        public C5() {}

        public C5(Integer cnt, String name) {
            this.cnt = cnt;
            this.name = name;
        }

        public Integer getCnt() { return cnt; }

        public void setCnt(Integer v) { cnt = v; }

        public String getName() { return name; }

        public void setName(String v) { name = v; }

        /** The value a key starts with. */
        public static C5 first() {
            return new C5(1, "v5");
        }

        @Override
        public C5 bump() {
            return new C5((cnt == null ? -100 : cnt + 1), name);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof C5 x && Objects.equals(cnt, x.cnt) && Objects.equals(name, x.name);
        }

        @Override
        public int hashCode() {
            return Objects.hash(cnt, name);
        }

        @Override
        public String toString() {
            return "C5{" + "cnt=" + cnt + ", " + "name=" + name + "}";
        }
    }

    /** C1 with a primitive (non-nullable) count. */
    public static class C6 implements Counter {
        private int count;
        private String name;

        public C6() {}

        public C6(int count, String name) {
            this.count = count;
            this.name = name;
        }

        public int getCount() { return count; }

        public void setCount(int v) { count = v; }

        public String getName() { return name; }

        public void setName(String v) { name = v; }

        /** The value a key starts with. */
        public static C6 first() {
            return new C6(1, "v6");
        }

        @Override
        public C6 bump() {
            return new C6(count + 1, name);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof C6 x && Objects.equals(count, x.count) && Objects.equals(name, x.name);
        }

        @Override
        public int hashCode() {
            return Objects.hash(count, name);
        }

        @Override
        public String toString() {
            return "C6{" + "count=" + count + ", " + "name=" + name + "}";
        }
    }

    /** C1 with a field added. */
    public static class C7 implements Counter {
        private Integer count;
        private String name;
        private String note;

        public C7() {}

        public C7(Integer count, String name, String note) {
            this.count = count;
            this.name = name;
            this.note = note;
        }

        public Integer getCount() { return count; }

        public void setCount(Integer v) { count = v; }

        public String getName() { return name; }

        public void setName(String v) { name = v; }

        public String getNote() { return note; }

        public void setNote(String v) { note = v; }

        /** The value a key starts with. */
        public static C7 first() {
            return new C7(1, "v7", "note");
        }

        @Override
        public C7 bump() {
            return new C7((count == null ? -100 : count + 1), name, (note == null ? "was-null" : note));
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof C7 x && Objects.equals(count, x.count) && Objects.equals(name, x.name) && Objects.equals(note, x.note);
        }

        @Override
        public int hashCode() {
            return Objects.hash(count, name, note);
        }

        @Override
        public String toString() {
            return "C7{" + "count=" + count + ", " + "name=" + name + ", " + "note=" + note + "}";
        }
    }

    /** C1 with primitive fields added: an int, a long, a boolean and a double. */
    public static class C8 implements Counter {
        private Integer count;
        private String name;
        private int hits;
        private long total;
        private boolean flag;
        private double ratio;

        public C8() {}

        public C8(Integer count, String name, int hits, long total, boolean flag, double ratio) {
            this.count = count;
            this.name = name;
            this.hits = hits;
            this.total = total;
            this.flag = flag;
            this.ratio = ratio;
        }

        public Integer getCount() { return count; }

        public void setCount(Integer v) { count = v; }

        public String getName() { return name; }

        public void setName(String v) { name = v; }

        public int getHits() { return hits; }

        public void setHits(int v) { hits = v; }

        public long getTotal() { return total; }

        public void setTotal(long v) { total = v; }

        public boolean isFlag() { return flag; }

        public void setFlag(boolean v) { flag = v; }

        public double getRatio() { return ratio; }

        public void setRatio(double v) { ratio = v; }

        /** The value a key starts with. */
        public static C8 first() {
            return new C8(1, "v8", 1, 10L, true, 0.5);
        }

        @Override
        public C8 bump() {
            return new C8((count == null ? -100 : count + 1), name, hits + 1, total + 10, !flag, ratio + 1);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof C8 x && Objects.equals(count, x.count) && Objects.equals(name, x.name) && hits == x.hits
                    && total == x.total && flag == x.flag && ratio == x.ratio;
        }

        @Override
        public int hashCode() {
            return Objects.hash(count, name, hits, total, flag, ratio);
        }

        @Override
        public String toString() {
            return "C8{count=" + count + ", name=" + name + ", hits=" + hits + ", total=" + total + ", flag=" + flag
                    + ", ratio=" + ratio + "}";
        }
    }

    /** C1 with a nested bean holding a name. */
    public static class C9 implements Counter {
        private Integer count;
        private String name;
        private Nested.Inner1 inner;

        public C9() {}

        public C9(Integer count, String name, Nested.Inner1 inner) {
            this.count = count;
            this.name = name;
            this.inner = inner;
        }

        public Integer getCount() { return count; }

        public void setCount(Integer v) { count = v; }

        public String getName() { return name; }

        public void setName(String v) { name = v; }

        public Nested.Inner1 getInner() { return inner; }

        public void setInner(Nested.Inner1 v) { inner = v; }

        /** The value a key starts with. */
        public static C9 first() {
            return new C9(1, "v9", new Nested.Inner1("in9"));
        }

        @Override
        public C9 bump() {
            return new C9((count == null ? -100 : count + 1), name, inner);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof C9 x && Objects.equals(count, x.count) && Objects.equals(name, x.name)
                    && Objects.equals(inner, x.inner);
        }

        @Override
        public int hashCode() {
            return Objects.hash(count, name, inner);
        }

        @Override
        public String toString() {
            return "C9{count=" + count + ", name=" + name + ", inner=" + inner + "}";
        }
    }

    /** C9 with a primitive int in the nested bean, and a float added. */
    public static class C10 implements Counter {
        private Integer count;
        private String name;
        private Nested.Inner2 inner;
        private float f;

        public C10() {}

        public C10(Integer count, String name, Nested.Inner2 inner, float f) {
            this.count = count;
            this.name = name;
            this.inner = inner;
            this.f = f;
        }

        public Integer getCount() { return count; }

        public void setCount(Integer v) { count = v; }

        public String getName() { return name; }

        public void setName(String v) { name = v; }

        public Nested.Inner2 getInner() { return inner; }

        public void setInner(Nested.Inner2 v) { inner = v; }

        public float getF() { return f; }

        public void setF(float v) { f = v; }

        /** The value a key starts with. */
        public static C10 first() {
            return new C10(1, "v10", new Nested.Inner2(1, "in10"), 1.5f);
        }

        @Override
        public C10 bump() {
            return new C10((count == null ? -100 : count + 1), name, inner, f);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof C10 x && Objects.equals(count, x.count) && Objects.equals(name, x.name)
                    && Objects.equals(inner, x.inner) && f == x.f;
        }

        @Override
        public int hashCode() {
            return Objects.hash(count, name, inner, f);
        }

        @Override
        public String toString() {
            return "C10{count=" + count + ", name=" + name + ", inner=" + inner + ", f=" + f + "}";
        }
    }
}
