package dev.twstester.sim;

import java.util.Arrays;

/** Encoded bytes as a map key: equality by content, order unsigned lexicographic as in RocksDB. */
final class Bytes implements Comparable<Bytes>, java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private final byte[] bytes;
    private final int hash;

    Bytes(byte[] bytes) {
        this.bytes = bytes;
        this.hash = Arrays.hashCode(bytes);
    }

    byte[] array() {
        return bytes;
    }

    @Override
    public int compareTo(Bytes other) {
        return Arrays.compareUnsigned(bytes, other.bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Bytes other && hash == other.hash && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
