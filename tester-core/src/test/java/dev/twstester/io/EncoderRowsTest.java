package dev.twstester.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Date;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.RowFactory;
import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;

import scala.Tuple2;

/** {@link EncoderRows}: the public route to rows, JSON and order of an encoder's values. */
class EncoderRowsTest {
    private static final Reading READING = new Reading("s1", Timestamp.from(Instant.parse("2024-05-01T10:00:00.123456Z")),
            Date.valueOf(LocalDate.of(2024, 5, 1)), 2.5);

    @Test
    void a_bean_is_a_json_object_of_its_columns_and_reads_back() {
        EncoderRows<Reading> rows = EncoderRows.of(Encoders.bean(Reading.class));
        assertThat(rows.isStruct()).isTrue();
        assertThat(rows.schema().fieldNames()).containsExactly("day", "sensor", "ts", "value");
        assertThat(rows.columnIndex("ts")).isEqualTo(2);
        assertThat(rows.columnIndex("nope")).isEqualTo(-1);
        JsonNode json = rows.toJson(READING);
        assertThat(json.toString())
                .isEqualTo("{\"day\":\"2024-05-01\",\"sensor\":\"s1\",\"ts\":\"2024-05-01T10:00:00.123456Z\",\"value\":2.5}");
        assertThat(rows.fromJson(json)).isEqualTo(READING);
        assertThat(rows.toRow(READING).getString(1)).isEqualTo("s1");
        assertThat(rows.fromRow(rows.toRow(READING))).isEqualTo(READING);
        assertThat(rows.encoder()).isEqualTo(Encoders.bean(Reading.class));
    }

    @Test
    void flat_values_are_bare_json_and_tuples_are_objects() {
        EncoderRows<String> strings = EncoderRows.of(Encoders.STRING());
        assertThat(strings.isStruct()).isFalse();
        assertThat(strings.toJson("ana").toString()).isEqualTo("\"ana\"");
        assertThat(strings.fromJson(strings.toJson("ana"))).isEqualTo("ana");
        assertThat(strings.toRow("b")).isEqualTo(RowFactory.create("b"));
        EncoderRows<Long> longs = EncoderRows.of(Encoders.LONG());
        assertThat(longs.toJson(42L).toString()).isEqualTo("42");
        assertThat(longs.fromJson(longs.toJson(42L))).isEqualTo(42L);
        EncoderRows<Tuple2<String, Long>> tuples = EncoderRows.of(Encoders.tuple(Encoders.STRING(), Encoders.LONG()));
        assertThat(tuples.toJson(new Tuple2<>("k", 3L)).toString()).isEqualTo("{\"_1\":\"k\",\"_2\":3}");
        assertThat(tuples.fromJson(tuples.toJson(new Tuple2<>("k", 3L)))).isEqualTo(new Tuple2<>("k", 3L));
    }

    @Test
    void json_that_does_not_fit_names_the_field() {
        EncoderRows<Reading> rows = EncoderRows.of(Encoders.bean(Reading.class));
        JsonNode bad = JsonRows.mapper().createObjectNode().put("sensor", "s1").put("ts", "10:61");
        assertThatThrownBy(() -> rows.fromJson(bad)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("field \"ts\": cannot parse \"10:61\" as timestamp");
    }

    @Test
    void encoded_bytes_identify_equal_values_and_sort_in_sparks_order() {
        EncoderRows<Reading> readings = EncoderRows.of(Encoders.bean(Reading.class));
        Reading copy = new Reading("s1", Timestamp.from(Instant.parse("2024-05-01T10:00:00.123456Z")),
                Date.valueOf(LocalDate.of(2024, 5, 1)), 2.5);
        assertThat(readings.encode(copy)).isEqualTo(readings.encode(READING)).isNotSameAs(readings.encode(READING));

        EncoderRows<Integer> ints = EncoderRows.of(Encoders.INT());
        List<Integer> values = new ArrayList<>(Arrays.asList(2, -3, 0, Integer.MIN_VALUE, 7));
        values.sort(ints.order());
        assertThat(values).containsExactly(Integer.MIN_VALUE, -3, 0, 2, 7);
        assertThat(ints.compareEncoded(ints.encode(-1), ints.encode(1))).isNegative();
        assertThat(ints.compareEncoded(ints.encode(5), ints.encode(5))).isZero();
        EncoderRows<String> strings = EncoderRows.of(Encoders.STRING());
        List<String> names = new ArrayList<>(List.of("b", "ab", "B", "a"));
        names.sort(strings.order());
        assertThat(names).containsExactly("B", "a", "ab", "b");
    }
}
