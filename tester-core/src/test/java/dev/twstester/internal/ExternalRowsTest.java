package dev.twstester.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.math.BigDecimal;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import org.apache.spark.SparkRuntimeException;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

import scala.jdk.javaapi.CollectionConverters;

/** {@link ExternalRows} on hand-picked rows; the values expected here are what Spark 4.2.0's row encoder gives. */
class ExternalRowsTest {

    private static UnsafeRow unsafe(byte[] bytes, StructType schema) {
        UnsafeRow row = new UnsafeRow(schema.length());
        row.pointTo(bytes, bytes.length);
        return row;
    }

    @Test
    void decimalsAreRoundedHalfUpAndWideOnesKeepTheirSixteenBytes() {
        StructType narrow = StructType.fromDDL("d decimal(5,2)");
        assertThat(HexFormat.of().formatHex(ExternalRows.fromExternal(RowFactory.create(new BigDecimal("1.235")), narrow)))
                .isEqualTo("00000000000000007c00000000000000");
        StructType wide = StructType.fromDDL("d decimal(38,38)");
        byte[] half = ExternalRows.fromExternal(RowFactory.create(new BigDecimal("0.5")), wide);
        assertThat(HexFormat.of().formatHex(half))
                .isEqualTo("00000000000000001000000010000000259da6542d43623d04c5112000000000");
        assertThat(ExternalRows.toExternal(unsafe(half, wide), wide).getDecimal(0))
                .isEqualTo(new BigDecimal("0.50000000000000000000000000000000000000"));
        // a null wide decimal still reserves its 16 bytes, as GenerateUnsafeProjection writes it
        assertThat(ExternalRows.fromExternal(RowFactory.create((Object) null), wide)).hasSize(32);
    }

    @Test
    void aNullCalendarIntervalKeepsSixteenZeroBytes() {
        StructType schema = new StructType().add("c", DataTypes.CalendarIntervalType).add("s", DataTypes.StringType);
        ExternalRows.fromExternal(RowFactory.create(null, "leave some bytes behind in the buffer"), schema);
        ExternalRows.fromExternal(RowFactory.create(new org.apache.spark.unsafe.types.CalendarInterval(-1, -1, -1L),
                "x"), schema);

        byte[] bytes = ExternalRows.fromExternal(RowFactory.create(null, "x"), schema);
        // null bits, offset 24 / size 16 of the interval, offset 40 / size 1 of "x", 16 zero bytes, "x" padded
        assertThat(HexFormat.of().formatHex(bytes)).isEqualTo("0100000000000000" + "1000000018000000"
                + "0100000028000000" + "0000000000000000" + "0000000000000000" + "7800000000000000");
    }

    @Test
    void rowsComeBackWithSparksDefaultExternalClasses() {
        StructType schema = StructType.fromDDL("ts timestamp, d date, ntz timestamp_ntz, a array<int>, "
                + "m map<string, struct<x: int>>");
        Row row = RowFactory.create(java.time.Instant.parse("2024-05-01T10:00:00.000001Z"),
                java.time.LocalDate.of(1500, 1, 1), java.time.LocalDateTime.of(2024, 5, 1, 10, 0),
                new int[] {1, 2}, scala.collection.immutable.Map$.MODULE$.empty().updated("k", RowFactory.create(3)));
        Row back = ExternalRows.toExternal(unsafe(ExternalRows.fromExternal(row, schema), schema), schema);

        assertThat(back).isInstanceOf(GenericRowWithSchema.class);
        assertThat(back.get(0)).isEqualTo(java.sql.Timestamp.from(java.time.Instant.parse("2024-05-01T10:00:00.000001Z")));
        assertThat(back.get(1)).isInstanceOf(java.sql.Date.class).hasToString("1500-01-01");
        assertThat(back.get(2)).isEqualTo(java.time.LocalDateTime.of(2024, 5, 1, 10, 0));
        assertThat(back.get(3).getClass().getName()).isEqualTo("scala.collection.mutable.ArraySeq$ofRef");
        assertThat(CollectionConverters.asJava(back.<scala.collection.Seq<Object>>getAs(3))).containsExactly(1, 2);
        assertThat(back.get(4).getClass().getName()).isEqualTo("scala.collection.immutable.Map$Map1");
        Row nested = (Row) back.<scala.collection.Map<Object, Object>>getAs(4).apply("k");
        assertThat(nested).isInstanceOf(GenericRowWithSchema.class);
        assertThat(nested.schema()).isEqualTo(StructType.fromDDL("x int"));
        assertThat(nested.getInt(0)).isEqualTo(3);
    }

    @Test
    void aValueOfTheWrongClassIsNamedWithSparksExpression() {
        StructType schema = new StructType().add("st", StructType.fromDDL("x int, y string"));
        SparkRuntimeException e = catchThrowableOfType(SparkRuntimeException.class,
                () -> ExternalRows.fromExternal(RowFactory.create(RowFactory.create("bad", "y")), schema));

        assertThat(e.getCondition()).isEqualTo("EXPRESSION_ENCODING_FAILED");
        SparkRuntimeException cause = (SparkRuntimeException) e.getCause();
        assertThat(cause.getCondition()).isEqualTo("INVALID_EXTERNAL_TYPE");
        assertThat(cause.getMessageParameters()).isEqualTo(Map.of(
                "externalType", "java.lang.String",
                "type", "\"INT\"",
                "expr", "\"getexternalrowfield(validateexternaltype(getexternalrowfield(assertnotnull("
                        + "input[0, org.apache.spark.sql.Row, true]), 0, st), StructField(x,IntegerType,true), "
                        + "StructField(y,StringType,true), ObjectType(interface org.apache.spark.sql.Row)), 0, x)\""));
    }

    @Test
    void nullsWhereTheSchemaForbidsThemFailAsInSpark() {
        StructType schema = new StructType().add("a", DataTypes.IntegerType, false)
                .add("arr", DataTypes.createArrayType(DataTypes.StringType, false));

        SparkRuntimeException field = catchThrowableOfType(SparkRuntimeException.class,
                () -> ExternalRows.fromExternal(RowFactory.create(null, null), schema));
        assertThat(field.getCondition()).isEqualTo("EXPRESSION_ENCODING_FAILED");
        assertThat(field.getCause()).isExactlyInstanceOf(RuntimeException.class)
                .hasMessage("The 0th field 'a' of input row cannot be null.");

        // an array element: Spark's AssertNotNull, not wrapped
        SparkRuntimeException element = catchThrowableOfType(SparkRuntimeException.class, () -> ExternalRows
                .fromExternal(RowFactory.create(1, CollectionConverters.asScala(java.util.Arrays.asList("x", null))
                        .toSeq()), schema));
        assertThat(element.getCondition()).isEqualTo("NOT_NULL_ASSERT_VIOLATION");
        assertThat(element.getCause()).isNull();

        SparkRuntimeException top = catchThrowableOfType(SparkRuntimeException.class,
                () -> ExternalRows.fromExternal(null, schema));
        assertThat(top.getCondition()).isEqualTo("NOT_NULL_ASSERT_VIOLATION");
        assertThat(top.getMessageParameters()).containsEntry("walkedTypePath", "\ntop level Product or row object\n");
    }

    @Test
    void aJavaListPassesSparksTypeCheckButNotItsArrayConversion() {
        StructType schema = StructType.fromDDL("tags array<string>");
        SparkRuntimeException e = catchThrowableOfType(SparkRuntimeException.class,
                () -> ExternalRows.fromExternal(RowFactory.create(List.of("a")), schema));
        assertThat(e.getCondition()).isEqualTo("EXPRESSION_ENCODING_FAILED");
        // (the message, naming scala.collection.Seq, is gone once the JIT throws it often: OmitStackTraceInFastThrow)
        assertThat(e.getCause()).isInstanceOf(ClassCastException.class);
    }

    @Test
    void typesOutsideTheNativeSetAreNamedSoCallersFallBackToCatalyst() {
        StructType variant = new StructType().add("m",
                DataTypes.createMapType(DataTypes.StringType, org.apache.spark.sql.types.VariantType$.MODULE$));
        StructType collated = new StructType().add("s", StringType.apply("UTF8_LCASE"));
        StructType supported = StructType.fromDDL("a array<map<string, struct<d: decimal(20,2)>>>, "
                + "i interval day to second, p interval year").add("c", DataTypes.CalendarIntervalType);

        assertThat(ExternalRows.supports(variant)).isFalse();
        assertThat(ExternalRows.supports(collated)).isFalse();
        assertThat(ExternalRows.supports(supported)).isTrue();
        assertThatThrownBy(() -> ExternalRows.fromExternal(RowFactory.create((Object) null), variant))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("not VARIANT")
                .hasMessageContaining("ExpressionEncoder.apply(schema, true)");
        assertThatThrownBy(() -> ExternalRows.toExternal(new UnsafeRow(1), collated))
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("STRING COLLATE UTF8_LCASE");
    }
}
