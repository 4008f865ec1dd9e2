package dev.twstester.io;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Date;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.junit.jupiter.api.Test;

import dev.twstester.internal.RowCodec;

import scala.Tuple2;

/** RowCodec's external-Row conversions, which RunResultJson and the live runner build on. */
class RowCodecExternalRowTest {

    @Test
    void a_bean_becomes_a_row_of_its_schema_and_back() {
        RowCodec<Reading> codec = RowCodec.of(Encoders.bean(Reading.class));
        Reading reading = new Reading("s1", Timestamp.from(Instant.parse("2024-05-01T10:00:00.123456Z")),
                Date.valueOf(LocalDate.of(2024, 5, 1)), 2.5);
        Row row = codec.toExternalRow(reading);
        assertThat(codec.schema().fieldNames()).containsExactly("day", "sensor", "ts", "value");
        assertThat(((Timestamp) row.get(2)).toInstant()).isEqualTo(Instant.parse("2024-05-01T10:00:00.123456Z"));
        assertThat(((Date) row.get(0)).toLocalDate()).isEqualTo(LocalDate.of(2024, 5, 1));
        assertThat(codec.fromExternalRow(row)).isEqualTo(reading);
        assertThat(codec.isSerializedAsStruct()).isTrue();
    }

    @Test
    void rows_with_java_time_values_are_accepted_too() {
        RowCodec<Reading> codec = RowCodec.of(Encoders.bean(Reading.class));
        Row row = RowFactory.create(LocalDate.of(2024, 5, 1), "s1", Instant.parse("2024-05-01T10:00:00Z"), 1.0);
        assertThat(codec.fromExternalRow(row)).isEqualTo(new Reading("s1",
                Timestamp.from(Instant.parse("2024-05-01T10:00:00Z")), Date.valueOf(LocalDate.of(2024, 5, 1)), 1.0));
    }

    @Test
    void flat_values_are_one_column_rows() {
        RowCodec<String> strings = RowCodec.of(Encoders.STRING());
        assertThat(strings.isSerializedAsStruct()).isFalse();
        assertThat(strings.toExternalRow("a")).isEqualTo(RowFactory.create("a"));
        assertThat(strings.fromExternalRow(RowFactory.create("b"))).isEqualTo("b");
        RowCodec<Tuple2<String, Long>> tuples = RowCodec.of(Encoders.tuple(Encoders.STRING(), Encoders.LONG()));
        assertThat(tuples.isSerializedAsStruct()).isTrue();
        assertThat(tuples.fromExternalRow(tuples.toExternalRow(new Tuple2<>("k", 3L)))).isEqualTo(new Tuple2<>("k", 3L));
    }
}
