package dev.twstester.sim;

import java.util.concurrent.ExecutionException;

import org.apache.avro.Schema;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.avro.AvroDeserializer;
import org.apache.spark.sql.avro.SchemaConverters$;
import org.apache.spark.sql.types.StructType;

import dev.twstester.internal.Sneaky;

/**
 * Spark's Avro reader of a state variable's values, built as the executor's {@code init} builds it
 * when the state encoding is {@code avro}: from the column family's value schema (all nullable,
 * with the TTL column when the variable has TTL) and Spark's Avro schema of it. Building it is the
 * check: a type Spark's Avro reader cannot read back (a {@code SMALLINT} or {@code TINYINT}, which
 * Avro stores as {@code int}) fails the way it fails in Spark, with Spark's
 * {@code IncompatibleSchemaException} thrown from the processor's {@code init}.
 */
final class AvroReaders {
    private AvroReaders() {}

    /**
     * Builds Spark's Avro reader of a variable with these encoders; throws Spark's error when it
     * cannot, wrapped as Spark's cache of Avro encoders wraps it (an {@link ExecutionException}, whose
     * message is the error's class and message).
     */
    static void check(Encoder<?>[] encoders, long ttlMs) {
        StructType schema = StateEvolution.valueSchema(encoders, ttlMs > 0, true);
        Schema avro = SchemaConverters$.MODULE$.toAvroTypeWithDefaults(schema);
        try {
            new AvroDeserializer(avro, schema, "CORRECTED", false, "", -1);
        } catch (Exception e) { // Spark's IncompatibleSchemaException, a checked exception Scala throws undeclared
            throw Sneaky.raise(new ExecutionException(e));
        }
    }
}
