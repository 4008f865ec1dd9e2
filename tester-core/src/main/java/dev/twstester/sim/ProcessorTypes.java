package dev.twstester.sim;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.sql.Date;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.StatefulProcessor;

/**
 * The encoders {@link TwsTester}'s Spark-shaped constructor runs a processor with, read from the
 * type arguments its class gives {@code StatefulProcessor<K, I, O>}: Spark's encoder for a basic
 * type, {@code Encoders.bean} for a class with a public no-argument constructor.
 */
final class ProcessorTypes {
    private static final Map<Class<?>, Encoder<?>> BASIC = Map.ofEntries(
            Map.entry(String.class, Encoders.STRING()), Map.entry(Long.class, Encoders.LONG()),
            Map.entry(Integer.class, Encoders.INT()), Map.entry(Double.class, Encoders.DOUBLE()),
            Map.entry(Float.class, Encoders.FLOAT()), Map.entry(Short.class, Encoders.SHORT()),
            Map.entry(Byte.class, Encoders.BYTE()), Map.entry(Boolean.class, Encoders.BOOLEAN()),
            Map.entry(Timestamp.class, Encoders.TIMESTAMP()), Map.entry(Instant.class, Encoders.INSTANT()),
            Map.entry(Date.class, Encoders.DATE()), Map.entry(LocalDate.class, Encoders.LOCALDATE()),
            Map.entry(BigDecimal.class, Encoders.DECIMAL()), Map.entry(byte[].class, Encoders.BINARY()));

    private ProcessorTypes() {
    }

    /** The class {@code processor}'s class binds to {@code StatefulProcessor}'s type parameter {@code index} (0 K, 1 I, 2 O). */
    static Class<?> typeArgument(StatefulProcessor<?, ?, ?> processor, int index) {
        for (Class<?> c = processor.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            Type parent = c.getGenericSuperclass();
            if (parent instanceof ParameterizedType p && p.getRawType() instanceof Class<?> raw
                    && StatefulProcessor.class.isAssignableFrom(raw) && raw.getPackageName().equals("org.apache.spark.sql.streaming")) {
                Type arg = p.getActualTypeArguments()[index];
                if (arg instanceof Class<?> found) {
                    return found;
                }
                if (arg instanceof ParameterizedType generic && generic.getRawType() instanceof Class<?> found) {
                    return found;
                }
                break;
            }
        }
        throw new IllegalArgumentException(processor.getClass().getName() + " does not name its "
                + new String[] {"key", "input", "output"}[index] + " type as a class in its extends clause, so "
                + "TwsTester cannot choose the encoder Spark would use: build a TwsQuery with explicit encoders and "
                + "use new TwsTester<>(query) (docs/from-twstester.md)");
    }

    /** Spark's encoder for values of class {@code c}. */
    @SuppressWarnings("unchecked")
    static <T> Encoder<T> encoderFor(Class<?> c, String what) {
        Encoder<?> basic = BASIC.get(c);
        if (basic != null) {
            return (Encoder<T>) basic;
        }
        try {
            c.getConstructor();
            return (Encoder<T>) Encoders.bean(c);
        } catch (NoSuchMethodException | RuntimeException e) {
            throw new IllegalArgumentException("the " + what + " type " + c.getName() + " is neither a basic type "
                    + "nor a bean, so TwsTester cannot choose its encoder: build a TwsQuery with explicit encoders and "
                    + "use new TwsTester<>(query) (docs/from-twstester.md)");
        }
    }
}
