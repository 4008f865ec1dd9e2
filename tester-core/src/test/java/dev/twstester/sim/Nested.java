package dev.twstester.sim;

import java.io.Serializable;
import java.util.Objects;

/**
 * The nested beans of {@link Counters.C9} and {@link Counters.C10}: how Avro reads a nested field
 * an old value lacks (see {@link EvolvingProcessor}).
 */
public final class Nested {
    private Nested() {}

    /** A nested bean with a name only. */
    public static class Inner1 implements Serializable {
        private String y;

        public Inner1() {}

        public Inner1(String y) {
            this.y = y;
        }

        public String getY() { return y; }

        public void setY(String v) { y = v; }

        @Override
        public boolean equals(Object o) {
            return o instanceof Inner1 i && Objects.equals(y, i.y);
        }

        @Override
        public int hashCode() {
            return Objects.hashCode(y);
        }

        @Override
        public String toString() {
            return "{y=" + y + "}";
        }
    }

    /** Inner1 with a primitive int added. */
    public static class Inner2 implements Serializable {
        private int x;
        private String y;

        public Inner2() {}

        public Inner2(int x, String y) {
            this.x = x;
            this.y = y;
        }

        public int getX() { return x; }

        public void setX(int v) { x = v; }

        public String getY() { return y; }

        public void setY(String v) { y = v; }

        @Override
        public boolean equals(Object o) {
            return o instanceof Inner2 i && x == i.x && Objects.equals(y, i.y);
        }

        @Override
        public int hashCode() {
            return Objects.hash(x, y);
        }

        @Override
        public String toString() {
            return "{x=" + x + ", y=" + y + "}";
        }
    }
}
