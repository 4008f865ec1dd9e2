package dev.twstester.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.InterpretedOrdering$;
import org.apache.spark.sql.catalyst.expressions.RowOrdering$;
import org.apache.spark.sql.catalyst.expressions.UnsafeRow;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

import scala.jdk.javaapi.CollectionConverters;

/**
 * {@link Layout}'s hash and order against Spark's ({@code Murmur3HashFunction}, {@code InterpretedOrdering},
 * {@code RowOrdering.isOrderable}) on rows Catalyst's row encoder wrote, for every type the layout covers:
 * the schemas of {@link ExternalRowsPropertyTest}, intervals, wide decimals and maps included (no encoder
 * the native codec covers reaches some of them).
 */
class LayoutTest {
    private static final int ROWS = 1_500;

    private record Written(StructType schema, StructLayout layout, List<UnsafeRow> rows) {}

    private static Written write(StructType schema, long seed) {
        ExternalRowsPropertyTest.Catalyst catalyst = new ExternalRowsPropertyTest.Catalyst(schema);
        ExternalRowsPropertyTest.Generator generator = new ExternalRowsPropertyTest.Generator(new SplittableRandom(seed));
        List<UnsafeRow> rows = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            Row row = generator.row(schema);
            byte[] bytes;
            try {
                bytes = catalyst.bytes(row);
            } catch (RuntimeException e) {
                continue;   // a value Spark does not encode
            }
            UnsafeRow unsafe = new UnsafeRow(schema.length());
            unsafe.pointTo(bytes, bytes.length);
            rows.add(unsafe);
        }
        assertThat(rows).as("rows Catalyst wrote for %s", schema.simpleString()).hasSizeGreaterThan(ROWS / 2);
        return new Written(schema, (StructLayout) Layout.of(schema), rows);
    }

    private static List<Written> written() {
        List<Written> all = new ArrayList<>();
        for (int i = 0; i < ExternalRowsPropertyTest.SCHEMAS.size(); i++) {
            all.add(write(ExternalRowsPropertyTest.SCHEMAS.get(i), 7_000 + i));
        }
        return all;
    }

    @Test
    void hashes_rows_as_sparks_murmur3_hash_of_their_columns() {
        for (Written w : written()) {
            StructField[] fields = w.schema().fields();
            for (UnsafeRow row : w.rows()) {
                int expected = RowCodec.HASH_SEED;
                for (int i = 0; i < fields.length; i++) {
                    DataType type = fields[i].dataType();
                    expected = RowCodec.hashColumn(row.isNullAt(i) ? null : row.get(i, type), type, expected);
                }
                assertThat(w.layout().hashFields(row, RowCodec.HASH_SEED)).as("hash of a row of %s",
                        w.schema().simpleString()).isEqualTo(expected);
            }
        }
    }

    @Test
    void orders_what_spark_orders_as_its_interpreted_ordering() {
        int ordered = 0;
        for (Written w : written()) {
            StructField[] fields = w.schema().fields();
            for (int i = 0; i < fields.length; i++) {
                assertThat(Layout.of(fields[i].dataType()).orderable()).as("orderable(%s)", fields[i].dataType().sql())
                        .isEqualTo(RowOrdering$.MODULE$.isOrderable(fields[i].dataType()));
            }
            if (!w.layout().orderable()) {
                continue;
            }
            DataType[] types = Arrays.stream(fields).map(StructField::dataType).toArray(DataType[]::new);
            var spark = InterpretedOrdering$.MODULE$.forSchema(CollectionConverters.asScala(Arrays.asList(types)).toSeq());
            List<UnsafeRow> rows = w.rows();
            for (int k = 1; k < rows.size(); k++) {
                UnsafeRow a = rows.get(k - 1);
                UnsafeRow b = rows.get(k % 7 == 0 ? 0 : k);
                assertThat(Integer.signum(w.layout().compareFields(a, b))).as("order in %s", w.schema().simpleString())
                        .isEqualTo(Integer.signum(spark.compare(a, b)));
                ordered++;
            }
        }
        assertThat(ordered).isGreaterThan(ROWS);
    }

    @Test
    void names_the_first_type_without_a_layout() {
        StructType variant = new StructType().add("a", DataTypes.IntegerType)
                .add("m", DataTypes.createMapType(DataTypes.StringType, org.apache.spark.sql.types.VariantType$.MODULE$));
        assertThat(Layout.uncovered(variant)).isEqualTo(org.apache.spark.sql.types.VariantType$.MODULE$);
        StringType collated = StringType.apply("UTF8_LCASE");
        assertThat(Layout.uncovered(DataTypes.createArrayType(collated))).isEqualTo(collated);
        assertThat(Layout.uncovered(StructType.fromDDL("d decimal(38,2), c interval day, s struct<x: binary>"))).isNull();
        assertThatThrownBy(() -> Layout.of(collated)).isInstanceOf(Layout.Uncovered.class)
                .hasMessage("no layout for STRING COLLATE UTF8_LCASE");
    }
}
