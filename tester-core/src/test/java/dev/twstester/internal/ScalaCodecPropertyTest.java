package dev.twstester.internal;

import static dev.twstester.internal.NativeCodecPropertyTest.property;
import static dev.twstester.internal.NativeCodecPropertyTest.topLevel;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.Supplier;

import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Encoders;
import org.junit.jupiter.api.Test;

import dev.twstester.TwsQuery;
import dev.twstester.sim.TwsSimulator;

import scala.Option;
import scala.Tuple2;

/**
 * The native path for Scala's shapes ({@code Encoders.product} of the case classes in
 * {@code src/test/scala}: {@link ScalaShapes}) against Spark's own encoder, as
 * {@link NativeCodecPropertyTest} checks the Java shapes: for each shape, {@value
 * NativeCodecPropertyTest#DEFAULT_VALUES} generated values with nulls, {@code None}, nesting and
 * extremes give the same bytes or failure, the same decoded objects, key order and partitions.
 */
class ScalaCodecPropertyTest {

    @Test
    void flat_case_class() {
        property("SFlat", ScalaShapes.flat(), g -> topLevel(g, () -> flat(g)));
    }

    @Test
    void case_class_as_a_key() {
        property("SKey", ScalaShapes.key(), g -> topLevel(g, () -> key(g)));
    }

    @Test
    void options_at_every_level() {
        property("SOptions", ScalaShapes.options(), g -> topLevel(g, () -> new SOptions(
                option(g, g::intValue),
                option(g, () -> option(g, () -> g.nullable(g::string))),
                option(g, () -> point(g)),
                option(g, g::longValue),
                option(g, g::bool),
                option(g, g::string))));
    }

    @Test
    void nested_case_classes_and_a_tuple_of_them() {
        property("SNested", ScalaShapes.nested(), g -> topLevel(g, () -> nested(g)));
    }

    @Test
    void tuple_of_case_classes() {
        property("(SKey, SPoint)", ScalaShapes.keyAndPoint(),
                g -> topLevel(g, () -> new Tuple2<>(g.nullable(() -> key(g)), g.nullable(() -> point(g)))));
    }

    @Test
    void scala_collections() {
        property("SCollections", ScalaShapes.collections(), 0.005, g -> topLevel(g, () -> collections(g)));
    }

    @Test
    void big_numbers_and_enumerations() {
        property("SNumbers", ScalaShapes.numbers(), g -> topLevel(g, () -> new SNumbers(
                g.nullable(() -> ScalaShapes.bigDecimal(g.chance(0.5) ? g.fittingDecimal() : g.decimal())),
                g.nullable(() -> ScalaShapes.bigInt(g.chance(0.5) ? g.fittingBigInteger() : g.bigInteger())),
                g.nullable(() -> g.oneOf(ScalaShapes.colors())),
                option(g, () -> ScalaShapes.bigDecimal(g.fittingDecimal())),
                g.longValue())));
    }

    /** encoderPaths() of a query whose key, rows, output and every state variable are case classes. */
    @Test
    void a_case_class_processor_runs_every_encoder_natively() {
        TwsSimulator<SKey, SPoint, SPerson> sim = new TwsSimulator<>(TwsQuery.builder(CaseClassProcessor::new)
                .keyBy(p -> new SKey("u" + p.x(), p.x() % 3, Option.empty()), ScalaShapes.key())
                .input(ScalaShapes.point())
                .output(ScalaShapes.person())
                .build());
        assertThat(sim.encoderPaths()).isNotEmpty().allSatisfy((what, path) -> assertThat(path).as(what).isEqualTo("native"));
        assertThat(sim.encoderPaths()).containsKeys("key", "input", "output", "state last", "state history",
                "state byShard key", "state byShard value");
        assertThat(sim.runBatch(new SPoint(4, 5L), new SPoint(4, 6L)).outputs())
                .containsExactly(new SPerson("u4", 8, Option.empty(), ScalaShapes.some(new SPoint(8, 11L))));
    }

    /** A case class declared inside a class stays on Spark's encoder, which says why. */
    @Test
    void an_inner_case_class_falls_back_to_spark_and_says_why() {
        Encoder<?> inner = ScalaShapes.inner(new SOuter());
        RowCodec<?> codec = RowCodec.of(inner);
        assertThat(codec.isNative()).isFalse();
        assertThat(codec.path()).startsWith("Catalyst (Spark's encoder): ")
                .contains("SOuter$SInner is an inner class", "define the case class at the top level or in an object");
    }

    // ---- generators ----

    /** None (1 in 6), a null Option (1 in 100), else Some. */
    static <T> Option<T> option(Gen g, Supplier<T> value) {
        int k = g.between(0, 99);
        return k == 0 ? null : k < 17 ? ScalaShapes.none() : ScalaShapes.some(value.get());
    }

    static SPoint point(Gen g) {
        return new SPoint(g.intValue(), g.longValue());
    }

    static SKey key(Gen g) {
        return new SKey(g.nullable(() -> g.chance(0.5) ? g.oneOf("a", "b", "") : g.string()),
                g.chance(0.5) ? g.between(0, 2) : g.intValue(), option(g, () -> g.oneOf("eu", "us")));
    }

    static SFlat flat(Gen g) {
        return new SFlat(g.bool(), g.byteValue(), g.shortValue(), g.intValue(), g.longValue(), g.floatValue(),
                g.doubleValue(), g.nullable(g::string), g.nullable(g::binary), g.nullable(g::saneTimestamp),
                g.nullable(g::saneInstant), g.nullable(g::saneLocalDate), g.nullable(g::intValue));
    }

    static SPerson person(Gen g) {
        return new SPerson(g.nullable(g::string), g.intValue(), option(g, g::string), option(g, () -> point(g)));
    }

    static SNested nested(Gen g) {
        return new SNested(g.longValue(), g.nullable(() -> point(g)), g.nullable(() -> person(g)),
                g.nullable(() -> new Tuple2<>(g.nullable(g::string), g.nullable(() -> point(g)))),
                option(g, () -> person(g)));
    }

    static SCollections collections(Gen g) {
        return new SCollections(
                g.nullable(() -> ScalaShapes.seq(g.list(() -> g.nullable(g::string)))),
                g.nullable(() -> ScalaShapes.list(g.list(g::intValue))),
                g.nullable(() -> ScalaShapes.vector(g.list(() -> g.nullable(() -> point(g))))),
                g.nullable(() -> ScalaShapes.set(g.list(g::longValue))),
                g.nullable(() -> ints(g)),
                g.nullable(() -> ScalaShapes.map(g.map(g::string, () -> g.nullable(() -> point(g))))),
                g.nullable(() -> ScalaShapes.seq(g.list(() -> option(g, g::intValue)))),
                g.nullable(() -> ScalaShapes.map(g.map(g::intValue,
                        () -> g.nullable(() -> ScalaShapes.seq(g.smallList(() -> g.nullable(g::string))))))),
                g.nullable(() -> g.smallList(() -> g.nullable(() -> person(g))).toArray(SPerson[]::new)),
                option(g, () -> ScalaShapes.seq(g.smallList(() -> g.nullable(g::longValue)))));
    }

    private static int[] ints(Gen g) {
        int[] a = new int[g.size()];
        for (int i = 0; i < a.length; i++) {
            a[i] = g.intValue();
        }
        return a;
    }
}
