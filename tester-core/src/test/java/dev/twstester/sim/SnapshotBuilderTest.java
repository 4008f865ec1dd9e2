package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.twstester.Scenario;
import dev.twstester.StateEncoding;
import dev.twstester.TwsQuery;
import dev.twstester.spark.CheckpointProbe;

import scala.Tuple2;

/**
 * {@link SnapshotBuilder#build()} takes its snapshot as {@link TwsSimulator#snapshot()} does: a
 * snapshot built from the rows, timers and position a simulator reached is that simulator's
 * snapshot field by field, the operator's time mode, output mode and state encoding included, and
 * restores and deploys a new version as the simulator's would.
 */
class SnapshotBuilderTest {

    private static Instant minute(int m) {
        return Instant.EPOCH.plusSeconds(60L * m);
    }

    private static long ms(int minute) {
        return minute(minute).toEpochMilli();
    }

    private static TwsQuery<String, String, String> probe(StateEncoding encoding) {
        return CheckpointProbe.query().withStateEncoding(encoding);
    }

    /** Minute 2: c's value and map entry, a's list element and timer; minute 5: a's pair, more for c, b's map. */
    private static TwsSimulator<String, String, String> ran(StateEncoding encoding) {
        TwsSimulator<String, String, String> sim = new TwsSimulator<>(probe(encoding));
        sim.run(Scenario.<String>builder()
                .batchAt(minute(2), List.of("c,v:x", "a,l:one", "c,m:k=4", "a,t:" + ms(40)))
                .batchAt(minute(5), List.of("a,p:7", "c,l:two", "c,t:" + ms(50), "b,m:q=1"))
                .build());
        return sim;
    }

    /** What {@link #ran} leaves, given to the builder (the probe's TTL is 10 minutes). */
    private static SnapshotBuilder<String> sameState(StateEncoding encoding) {
        return SnapshotBuilder.of(probe(encoding), Fidelity.FULL)
                .timer("c", ms(50))
                .mapEntry("tags", "b", "q", 1L, ms(15))
                .listElement("seen", "c", "two", ms(15))
                .value("pair", "a", new Tuple2<>("a!", 7L), SnapshotBuilder.NO_EXPIRY)
                .timer("a", ms(40))
                .mapEntry("tags", "c", "k", 4L, ms(12))
                .listElement("seen", "a", "one", ms(12))
                .value("last", "c", "x", ms(12))
                .position(ms(5), 0, 0, 2);
    }

    @ParameterizedTest
    @EnumSource(StateEncoding.class)
    void a_built_snapshot_is_the_simulators_after_the_same_batches_field_by_field(StateEncoding encoding) {
        StateSnapshot taken = ran(encoding).snapshot();
        StateSnapshot built = sameState(encoding).build();

        StateSnapshot.OperatorData b = built.operators.get(0);
        StateSnapshot.OperatorData t = taken.operators.get(0);
        assertThat(b.settings()).isEqualTo(new StateSnapshot.Settings("ProcessingTime", "Update", encoding))
                .isEqualTo(t.settings());
        assertThat(b.keyEncoder()).isEqualTo(t.keyEncoder());
        assertThat(b.variables()).extracting(StateSnapshot.Variable::name, StateSnapshot.Variable::kind,
                StateSnapshot.Variable::ttlMs, v -> List.of(v.encoders())).containsExactlyElementsOf(
                        t.variables().stream().map(v -> org.assertj.core.groups.Tuple.tuple(v.name(), v.kind(),
                                v.ttlMs(), List.of(v.encoders()))).toList());
        assertThat(built.processingTimeMs).isEqualTo(taken.processingTimeMs).isEqualTo(ms(5));
        assertThat(b.dropped()).isEqualTo(t.dropped()).isEmpty();
        assertThat(b.timers().keySet()).isEqualTo(t.timers().keySet()).hasSize(2);
        // the next batch id, both watermarks, every key's data with expirations, every timer
        assertThat(built.differencesTo(taken)).isEmpty();
        assertThat(built.differencesTo(ran(encoding).snapshot())).isEmpty();
    }

    @Test
    void a_built_snapshot_restores_and_deploys_a_new_version_as_a_taken_one_does() {
        for (StateSnapshot avro : List.of(ran(StateEncoding.AVRO).snapshot(), sameState(StateEncoding.AVRO).build())) {
            // restored into a query that asks for UnsafeRow: the checkpoint's encoding stays, as in Spark
            TwsSimulator<String, String, String> sim = new TwsSimulator<>(probe(StateEncoding.UNSAFE_ROW));
            sim.restore(avro);
            assertThat(sim.snapshot().operators.get(0).settings().encoding()).isEqualTo(StateEncoding.AVRO);

            TwsSimulator<String, String, String> v2 = sim.restartWith(CheckpointProbe.WithNotes.query());
            assertThat(v2.snapshot().operators.get(0).settings())
                    .isEqualTo(new StateSnapshot.Settings("ProcessingTime", "Update", StateEncoding.AVRO));
            assertThat(v2.state().list("seen", "c")).containsExactly("two");
            assertThat(v2.state().<String, Long>map("tags", "b")).isEqualTo(Map.of("q", 1L));
            assertThat(v2.state().timers("a")).containsExactly(minute(40));

            TwsSimulator<String, String, String> appendVersion = sim.restartWith(TwsQuery.builder(CheckpointProbe::new)
                    .keyBy(row -> row.substring(0, row.indexOf(',')), Encoders.STRING())
                    .input(Encoders.STRING()).output(Encoders.STRING())
                    .timeMode(TimeMode.ProcessingTime()).outputMode(OutputMode.Append())
                    .build());
            Throwable append = catchThrowable(() -> appendVersion.runBatch("a,v x"));
            assertThat(((SparkThrowable) append).getCondition()).isEqualTo("STATE_STORE_INVALID_CONFIG_AFTER_RESTART");
            assertThat(((SparkThrowable) append).getMessageParameters()).containsExactlyInAnyOrderEntriesOf(Map.of(
                    "configName", "outputMode", "oldConfig", "Update", "newConfig", "Append"));
        }
    }
}
