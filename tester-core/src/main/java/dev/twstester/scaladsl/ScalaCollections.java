package dev.twstester.scaladsl;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

import scala.Option;
import scala.collection.immutable.VectorMap$;
import scala.jdk.javaapi.CollectionConverters;
import scala.jdk.javaapi.OptionConverters;

/** Conversions between the simulator's Java shapes and Scala's immutable collections. */
final class ScalaCollections {
    private ScalaCollections() {
    }

    /** An immutable Scala {@code List} of {@code list}'s elements, in order. */
    static <T> scala.collection.immutable.List<T> toScala(List<T> list) {
        return CollectionConverters.asScala(list).toList();
    }

    /** An immutable Scala map of {@code map}'s entries that keeps their order. */
    static <K, V> scala.collection.immutable.Map<K, V> toScala(Map<K, V> map) {
        return VectorMap$.MODULE$.from(CollectionConverters.asScala(map));
    }

    static <T> Option<T> toScala(Optional<T> value) {
        return OptionConverters.toScala(value);
    }

    /** A Java list of {@code seq}'s elements; {@code what} names the argument in the error for null. */
    static <T> List<T> toJava(scala.collection.Seq<T> seq, String what) {
        Objects.requireNonNull(seq, () -> what + " must not be null; pass Seq() for none");
        return new ArrayList<>(CollectionConverters.asJava(seq));
    }

    /** A Java map of {@code map}'s entries, in its iteration order. */
    static <K, V> Map<K, V> toJava(scala.collection.Map<K, V> map, String what) {
        Objects.requireNonNull(map, () -> what + " must not be null; pass Map() for none");
        return new LinkedHashMap<>(CollectionConverters.asJava(map));
    }
}
