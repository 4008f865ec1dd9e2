package dev.twstester.internal;

import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.spark.QueryContext;
import org.apache.spark.SparkRuntimeException;
import org.apache.spark.sql.types.DataType;

import scala.jdk.javaapi.CollectionConverters;

/**
 * The errors Spark's serializers and deserializers raise, as both native codecs raise them: the same
 * error conditions and message parameters ({@code QueryExecutionErrors}), so a caller sees the error
 * Spark's own encoder would have given.
 */
final class CodecErrors {
    private CodecErrors() {
    }

    private static final String NOT_NULL = "NOT_NULL_ASSERT_VIOLATION";

    /** Spark's {@code AssertNotNull}: a null where the encoder forbids one, at {@code walkedTypePath}. */
    static SparkRuntimeException notNull(String walkedTypePath) {
        return error(NOT_NULL, null, "walkedTypePath", "\n" + walkedTypePath + "\n");
    }

    /** {@code ExternalMapToCatalyst}'s null map key. */
    static SparkRuntimeException nullMapKey() {
        return error("NULL_MAP_KEY", null);
    }

    /** {@code ValidateExternalType}: {@code value} is not of a class Spark accepts for {@code type} at {@code expression}. */
    static SparkRuntimeException invalidExternalType(Object value, DataType type, String expression) {
        return error("INVALID_EXTERNAL_TYPE", null,
                "externalType", value.getClass().getName(),
                "type", "\"" + type.sql() + "\"",
                "expr", "\"" + expression + "\"");
    }

    /**
     * What {@code ExpressionEncoder}'s serializer throws when {@code serializer} fails with {@code cause}:
     * {@code EXPRESSION_ENCODING_FAILED} around it, except {@code NOT_NULL_ASSERT_VIOLATION}, which it lets
     * through as it is.
     */
    static RuntimeException encodingFailed(String serializer, Throwable cause) {
        return notNullViolation(cause) ? (RuntimeException) cause
                : error("EXPRESSION_ENCODING_FAILED", cause, "expressions", serializer);
    }

    /** As {@link #encodingFailed}, for the deserializer: {@code EXPRESSION_DECODING_FAILED}. */
    static RuntimeException decodingFailed(String deserializer, Throwable cause) {
        return notNullViolation(cause) ? (RuntimeException) cause
                : error("EXPRESSION_DECODING_FAILED", cause, "expressions", deserializer);
    }

    private static boolean notNullViolation(Throwable e) {
        return e instanceof SparkRuntimeException s && NOT_NULL.equals(s.getCondition());
    }

    private static SparkRuntimeException error(String condition, Throwable cause, String... keyValues) {
        Map<String, String> parameters = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            parameters.put(keyValues[i], keyValues[i + 1]);
        }
        return new SparkRuntimeException(condition,
                scala.collection.immutable.Map$.MODULE$.from(CollectionConverters.asScala(parameters)),
                cause, new QueryContext[0], "");
    }
}
