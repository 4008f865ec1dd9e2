package dev.twstester.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.sql.Date;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.Period;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import scala.jdk.javaapi.CollectionConverters;

/** JsonRows: every supported Spark type to JSON and back, and the messages for bad JSON. */
class JsonRowsTest {
    private static final ObjectMapper MAPPER = JsonRows.mapper();

    private static final StructType INNER = new StructType()
            .add("x", DataTypes.DoubleType)
            .add("list", DataTypes.createArrayType(new StructType().add("a", DataTypes.IntegerType)));
    private static final StructType NESTED = new StructType()
            .add("name", DataTypes.StringType)
            .add("inner", INNER);
    private static final StructType ALL = new StructType()
            .add("s", DataTypes.StringType)
            .add("b", DataTypes.BooleanType)
            .add("i8", DataTypes.ByteType)
            .add("i16", DataTypes.ShortType)
            .add("i32", DataTypes.IntegerType)
            .add("i64", DataTypes.LongType)
            .add("f", DataTypes.FloatType)
            .add("d", DataTypes.DoubleType)
            .add("dec", DataTypes.createDecimalType(10, 2))
            .add("day", DataTypes.DateType)
            .add("ts", DataTypes.TimestampType)
            .add("ntz", DataTypes.TimestampNTZType)
            .add("bin", DataTypes.BinaryType)
            .add("arr", DataTypes.createArrayType(DataTypes.IntegerType, true))
            .add("m", DataTypes.createMapType(DataTypes.StringType, DataTypes.LongType))
            .add("im", DataTypes.createMapType(DataTypes.IntegerType, DataTypes.StringType))
            .add("nested", NESTED)
            .add("n", DataTypes.StringType);

    private static Row allTypes() {
        return RowFactory.create("héllo \"q\"", true, (byte) -8, (short) 300, 70_000, 5_000_000_000L, 1.5f, 0.1,
                new BigDecimal("12.30"), Date.valueOf(LocalDate.of(2024, 5, 1)),
                Timestamp.from(Instant.parse("2024-05-01T10:00:00.123456Z")),
                LocalDateTime.of(2024, 5, 1, 10, 0), new byte[] {0, 1, 2, (byte) 255},
                seq(1, null, 3), map("ana", 1L, "bob", null), map(1, "one", 2, "two"),
                RowFactory.create("n1", RowFactory.create(2.5, seq(RowFactory.create(1), RowFactory.create((Object) null)))),
                null);
    }

    private static final String ALL_JSON = "{\"s\":\"héllo \\\"q\\\"\",\"b\":true,\"i8\":-8,\"i16\":300,\"i32\":70000,"
            + "\"i64\":5000000000,\"f\":1.5,\"d\":0.1,\"dec\":12.30,\"day\":\"2024-05-01\","
            + "\"ts\":\"2024-05-01T10:00:00.123456Z\",\"ntz\":\"2024-05-01T10:00:00\",\"bin\":\"AAEC/w==\","
            + "\"arr\":[1,null,3],\"m\":{\"ana\":1,\"bob\":null},\"im\":[[1,\"one\"],[2,\"two\"]],"
            + "\"nested\":{\"name\":\"n1\",\"inner\":{\"x\":2.5,\"list\":[{\"a\":1},{\"a\":null}]}},\"n\":null}";

    @Test
    void writes_every_type_in_its_documented_json_form() throws Exception {
        assertThat(MAPPER.writeValueAsString(JsonRows.toJson(allTypes(), ALL))).isEqualTo(ALL_JSON);
    }

    @Test
    void reads_back_an_equal_row_for_every_type_including_nulls_and_nesting() throws Exception {
        Row back = JsonRows.fromJson(MAPPER.readTree(ALL_JSON), ALL);
        assertThat(back).isEqualTo(allTypes());
        assertThat(back.get(ALL.fieldIndex("ts"))).isInstanceOf(Timestamp.class);
        assertThat(((Timestamp) back.get(ALL.fieldIndex("ts"))).getNanos()).isEqualTo(123_456_000);
        assertThat(back.getList(ALL.fieldIndex("arr"))).containsExactly(1, null, 3);
        Map<String, Long> m = back.getJavaMap(ALL.fieldIndex("m"));
        assertThat(m.keySet()).containsExactly("ana", "bob");
        assertThat(m).containsEntry("ana", 1L).containsEntry("bob", null);
        assertThat(back.getStruct(ALL.fieldIndex("nested")).getStruct(1).getDouble(0)).isEqualTo(2.5);
    }

    @Test
    void a_row_of_nulls_round_trips_and_missing_fields_read_as_null() throws Exception {
        Row nulls = RowFactory.create(new Object[ALL.size()]);
        JsonNode json = JsonRows.toJson(nulls, ALL);
        assertThat(json.size()).isEqualTo(ALL.size());
        assertThat(JsonRows.fromJson(json, ALL)).isEqualTo(nulls);
        assertThat(JsonRows.fromJson(MAPPER.readTree("{}"), ALL)).isEqualTo(nulls);
        assertThat(JsonRows.fromJson(MAPPER.readTree("{\"nested\":{\"inner\":{}}}"), ALL).getStruct(16))
                .isEqualTo(RowFactory.create(null, RowFactory.create(null, null)));
    }

    @Test
    void writes_the_java_forms_of_values_too() throws Exception {
        StructType schema = new StructType().add("ts", DataTypes.TimestampType).add("day", DataTypes.DateType)
                .add("arr", DataTypes.createArrayType(DataTypes.StringType))
                .add("m", DataTypes.createMapType(DataTypes.StringType, DataTypes.IntegerType))
                .add("iv", DataTypes.createDayTimeIntervalType()).add("ym", DataTypes.createYearMonthIntervalType());
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put("z", 1);
        m.put("a", 2);
        Row row = RowFactory.create(Instant.parse("2024-05-01T10:00:00Z"), LocalDate.of(2024, 5, 1), List.of("p", "q"), m,
                Duration.ofSeconds(90), Period.of(1, 2, 0));
        String json = MAPPER.writeValueAsString(JsonRows.toJson(row, schema));
        assertThat(json).isEqualTo("{\"ts\":\"2024-05-01T10:00:00Z\",\"day\":\"2024-05-01\",\"arr\":[\"p\",\"q\"],"
                + "\"m\":{\"z\":1,\"a\":2},\"iv\":\"PT1M30S\",\"ym\":\"P1Y2M\"}");
        Row back = JsonRows.fromJson(MAPPER.readTree(json), schema);
        assertThat(back.get(2)).isEqualTo(seq("p", "q"));
        assertThat(back.get(4)).isEqualTo(Duration.ofSeconds(90));
        assertThat(back.get(5)).isEqualTo(Period.of(1, 2, 0));
    }

    @Test
    void special_floating_point_values_are_strings() throws Exception {
        StructType schema = new StructType().add("f", DataTypes.FloatType).add("d", DataTypes.DoubleType)
                .add("e", DataTypes.DoubleType);
        Row row = RowFactory.create(Float.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY);
        String json = MAPPER.writeValueAsString(JsonRows.toJson(row, schema));
        assertThat(json).isEqualTo("{\"f\":\"NaN\",\"d\":\"Infinity\",\"e\":\"-Infinity\"}");
        assertThat(JsonRows.fromJson(MAPPER.readTree(json), schema)).isEqualTo(row);
    }

    @Test
    void timestamps_with_an_offset_are_read_as_the_same_instant() throws Exception {
        StructType schema = new StructType().add("ts", DataTypes.TimestampType);
        Row row = JsonRows.fromJson(MAPPER.readTree("{\"ts\":\"2024-05-01T12:00:00.000001+02:00\"}"), schema);
        assertThat(((Timestamp) row.get(0)).toInstant()).isEqualTo(Instant.parse("2024-05-01T10:00:00.000001Z"));
    }

    @Test
    void a_bad_timestamp_names_the_field_the_value_and_the_expected_form() {
        StructType schema = new StructType().add("ts", DataTypes.TimestampType);
        assertThatThrownBy(() -> JsonRows.fromJson(MAPPER.readTree("{\"ts\":\"10:61\"}"), schema))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("field \"ts\": cannot parse \"10:61\" as timestamp; "
                        + "write an ISO-8601 instant like \"2024-05-01T10:00:00Z\"");
    }

    @Test
    void errors_give_the_path_into_nested_values() {
        assertThat(readError("{\"nested\":{\"inner\":{\"list\":[{\"a\":1},{\"a\":\"x\"}]}}}", ALL))
                .isEqualTo("field \"nested.inner.list[1].a\": cannot parse \"x\" as int; write a JSON integer");
        assertThat(readError("{\"m\":{\"ana\":1.5}}", ALL))
                .isEqualTo("field \"m.ana\": cannot parse 1.5 as bigint; write a JSON integer");
        assertThat(readError("{\"im\":[[1,\"one\"],[\"two\",\"2\"]]}", ALL))
                .isEqualTo("field \"im[1][0]\": cannot parse \"two\" as int; write a JSON integer");
        assertThat(readError("{\"im\":{\"1\":\"one\"}}", ALL))
                .isEqualTo("field \"im\": cannot parse {\"1\":\"one\"} as map<int,string>; write an array of [key, value] pairs");
    }

    @Test
    void errors_for_ranges_types_and_names() {
        assertThat(readError("{\"i8\":300}", ALL))
                .isEqualTo("field \"i8\": cannot parse 300 as tinyint; it is out of range [-128, 127]");
        assertThat(readError("{\"dec\":1.234}", ALL))
                .isEqualTo("field \"dec\": cannot parse 1.234 as decimal(10,2); write a JSON number with at most 2 decimal places");
        assertThat(readError("{\"b\":\"yes\"}", ALL))
                .isEqualTo("field \"b\": cannot parse \"yes\" as boolean; write true or false");
        assertThat(readError("{\"s\":12}", ALL))
                .isEqualTo("field \"s\": cannot parse 12 as string; write a JSON string");
        assertThat(readError("{\"bin\":\"***\"}", ALL))
                .isEqualTo("field \"bin\": cannot parse \"***\" as binary; write the bytes as a base64 string");
        assertThat(readError("{\"day\":\"2024-13-01\"}", ALL))
                .isEqualTo("field \"day\": cannot parse \"2024-13-01\" as date; write an ISO-8601 date like \"2024-05-01\"");
        assertThat(readError("{\"nestd\":{}}", ALL)).isEqualTo("field \"nestd\": unknown field (did you mean \"nested\"?); "
                + "the fields are [s, b, i8, i16, i32, i64, f, d, dec, day, ts, ntz, bin, arr, m, im, nested, n]");
        assertThat(readError("[1]", ALL)).startsWith("cannot parse [1] as struct<s:string,");
    }

    @Test
    void a_field_the_schema_declares_not_null_must_be_given() {
        StructType schema = new StructType(new StructField[] {
            new StructField("count", DataTypes.LongType, false, Metadata.empty())});
        assertThat(readError("{}", schema))
                .isEqualTo("field \"count\": missing, but the schema does not allow null here (bigint NOT NULL); give a value");
        assertThat(readError("{\"count\":null}", schema)).startsWith("field \"count\": null, but");
    }

    @Test
    void writing_a_value_of_the_wrong_class_names_the_field() {
        StructType schema = new StructType().add("ts", DataTypes.TimestampType);
        assertThatThrownBy(() -> JsonRows.toJson(RowFactory.create("10:00"), schema))
                .hasMessage("field \"ts\": a timestamp value must be java.time.Instant or java.sql.Timestamp, "
                        + "not java.lang.String 10:00; check that the row matches the schema");
    }

    @Test
    void a_top_level_value_uses_the_given_path() throws Exception {
        DataType type = DataTypes.LongType;
        assertThat(JsonRows.valueToJson(5L, type, "value").toString()).isEqualTo("5");
        assertThat(JsonRows.valueFromJson(MAPPER.readTree("5"), type, "value")).isEqualTo(5L);
        assertThatThrownBy(() -> JsonRows.valueFromJson(MAPPER.readTree("\"5\""), type, "value"))
                .hasMessage("field \"value\": cannot parse \"5\" as bigint; write a JSON integer");
    }

    private static String readError(String json, StructType schema) {
        try {
            JsonRows.fromJson(MAPPER.readTree(json), schema);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("no error reading " + json);
    }

    private static Object seq(Object... values) {
        return CollectionConverters.asScala(Arrays.asList(values)).toList();
    }

    private static Object map(Object... keysAndValues) {
        Map<Object, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            m.put(keysAndValues[i], keysAndValues[i + 1]);
        }
        return scala.collection.immutable.VectorMap$.MODULE$.from(CollectionConverters.asScala(m));
    }
}
