package dev.twstester.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;

import org.apache.spark.SparkRuntimeException;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import scala.jdk.javaapi.CollectionConverters;
import dev.twstester.testing.ChildJvm;

/**
 * A fresh JVM converting rows with {@link ExternalRows} (both ways, a failure included) loads neither
 * Catalyst's analyzer ({@code org.apache.spark.sql.catalyst.analysis.*}) nor its code generator.
 */
class ExternalRowsClassLoadTest {
    static final StructType SCHEMA = StructType.fromDDL("id bigint, name string, price decimal(30,4), "
            + "at timestamp, day date, local timestamp_ntz, tags array<string>, "
            + "attrs map<string, struct<v: double, bytes: binary>>, nested struct<a: array<array<int>>, b: boolean>");

    @Test
    void aFreshJvmConvertingRowsLoadsNoAnalyzerAndNoCodeGenerator(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("classes.log");
        ChildJvm.Result child = ChildJvm.main(ExternalRowsClassLoadTest.class)
                .flag("-Xlog:class+load=info:file=" + log).timeout(java.time.Duration.ofSeconds(120)).run();
        String output = child.stdout() + child.stderr();
        assertThat(child.exit()).as(output).isZero();
        assertThat(output).contains("converted: ");
        System.out.println("ExternalRowsClassLoadTest child: " + output.lines()
                .filter(l -> l.startsWith("converted: ")).findFirst().orElse(output));

        List<String> loaded = Files.readAllLines(log);
        assertThat(loaded).as("classes loaded").anyMatch(l -> l.contains(ExternalRows.class.getName() + " "));
        assertThat(loaded).as("classes loaded").anyMatch(l -> l.contains("UnsafeRowWriter "));
        assertThat(loaded).as("classes loaded")
                .noneMatch(l -> l.contains("org.apache.spark.sql.catalyst.analysis."))
                .noneMatch(l -> l.contains("CodeGenerator"))
                .noneMatch(l -> l.contains("org.apache.spark.sql.catalyst.encoders.ExpressionEncoder"));
    }

    /** The child JVM: converts a row both ways, then a row Spark rejects; prints the time taken. */
    public static void main(String[] args) throws IOException {
        long started = System.nanoTime();
        Row row = RowFactory.create(7L, "ünïcødé 🐎", new BigDecimal("-12345678901234567890.12345"),
                Instant.parse("1500-03-01T10:15:30.123456Z"), LocalDate.of(1969, 12, 31),
                LocalDateTime.of(2024, 2, 29, 23, 59, 59, 999_999_000),
                CollectionConverters.asScala(List.of("a", "b")).toSeq(),
                scala.collection.immutable.Map$.MODULE$.empty().updated("k", RowFactory.create(1.5, new byte[] {1})),
                RowFactory.create(new int[][] {{1, 2}, {}}, true));
        if (!ExternalRows.supports(SCHEMA)) {
            throw new AssertionError("schema not supported");
        }
        byte[] bytes = ExternalRows.fromExternal(row, SCHEMA);
        UnsafeRow unsafe = new UnsafeRow(SCHEMA.length());
        unsafe.pointTo(bytes, bytes.length);
        Row back = ExternalRows.toExternal(unsafe, SCHEMA);
        long converted = System.nanoTime();
        long sinceJvmStart = System.currentTimeMillis() - ManagementFactory.getRuntimeMXBean().getStartTime();
        try {
            ExternalRows.fromExternal(RowFactory.create("7"), SCHEMA);
            throw new AssertionError("a string for a bigint must fail");
        } catch (SparkRuntimeException e) {
            if (!"INVALID_EXTERNAL_TYPE".equals(((SparkRuntimeException) e.getCause()).getCondition())) {
                throw new AssertionError("unexpected failure", e);
            }
        }
        try {
            ExternalRows.fromExternal(RowFactory.create(1L, "x", new BigDecimal("1e40")), SCHEMA);
            throw new AssertionError("a decimal overflow must fail");
        } catch (SparkRuntimeException e) {
            if (!"NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION".equals(
                    ((org.apache.spark.SparkThrowable) e.getCause()).getCondition())) {
                throw new AssertionError("unexpected failure", e);
            }
        }
        System.out.printf("converted: first row both ways in %d ms (JVM start to then: %d ms), two failures in %d ms; "
                        + "%d bytes, back: %s%n",
                (converted - started) / 1_000_000, sinceJvmStart,
                (System.nanoTime() - converted) / 1_000_000, bytes.length, back);
    }
}
