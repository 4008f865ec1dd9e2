package dev.twstester.internal;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.catalyst.encoders.AgnosticEncoders;

import scala.jdk.javaapi.CollectionConverters;

/**
 * Internal, not API: may change in any release.
 *
 * <p>What an encoder is made of, read from its structure alone: no Catalyst code is loaded, so
 * the simulator can decide without Catalyst whether a type needs Spark's encoder at all.
 *
 * <p>Public for {@code dev.twstester.sim} ({@code KeyCodec}, {@code SparkRows}), which choose
 * how keys and rows are read.
 */
public final class EncoderShapes {
    private EncoderShapes() {
    }

    /**
     * The element encoders of a Scala tuple encoder ({@code Encoders.tuple(...)}), or null when
     * {@code encoder} is not one. Reads the encoder's structure only; loads no Catalyst code.
     */
    public static Encoder<?>[] tupleElements(Encoder<?> encoder) {
        if (!(encoder instanceof AgnosticEncoders.ProductEncoder<?> product)
                || !product.clsTag().runtimeClass().getName().startsWith("scala.Tuple")) {
            return null;
        }
        return CollectionConverters.asJava(product.fields()).stream()
                .map(AgnosticEncoders.EncoderField::enc)
                .toArray(Encoder<?>[]::new);
    }

    /**
     * For the flat encoders of immutable values ({@code Encoders.STRING()}, {@code LONG()}, {@code INT()},
     * {@code SHORT()}, {@code BYTE()}, {@code BOOLEAN()}: those {@link FlatRow} encodes): the class of
     * their values; else null. Reads the encoder's class only.
     */
    public static Class<?> immutableLeafClass(Encoder<?> encoder) {
        ExternalAtom atom = EncoderPlan.boxedLeaf(encoder);
        return atom != null && FlatRow.of(atom) != null ? atom.javaClass : null;
    }
}
