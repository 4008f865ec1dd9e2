package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;

/**
 * Replays a ProcessingTime run recorded on live Spark 4.2.0 (and one of timers deleted inside
 * timer callbacks) and expects exactly what Spark emitted and logged; the rules are those of
 * docs/semantics.md, sections 2, 5, 6 and 7.
 */
class ProcessingTimeExperimentTest {
    private TwsSimulator<String, String, String> sim;

    @BeforeEach
    void setUp() {
        Log.drain();
        sim = new TwsSimulator<>(TwsQuery.builder(ExperimentProcessor::new)
                .keyBy(s -> s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .outputMode(OutputMode.Update())
                .build());
    }

    private static Instant t(long ms) {
        return Instant.ofEpochMilli(ms);
    }

    @Test
    void spec_1_1_driver_pass_runs_init_and_close_twice_before_anything_else() {
        // the constructor is the query start: two driver-side init/close passes, no batch
        assertThat(Log.drain()).containsExactly("init counter=0 batch=0", "close", "init counter=0 batch=0", "close");
        assertThat(sim.setProcessingTime(t(1000)).batches()).as("spec 3: nothing runs before the first data batch").isEmpty();
    }

    @Test
    void reproduces_run_proc_batch_by_batch() {
        Log.drain();
        RunResult<String, String, String> b0 = sim.runBatchAt(t(1000), List.of(
                "x,reg:70000", "x,reg:2000", "x,reg:1000", "x,reg:300", "x,reg:256", "x,reg:1", "x,reg:2000", "x,del:999",
                "b,reg:5000", "a,reg:5000", "ccc,reg:5000", "dd,reg:5000", "aa,reg:4000", "chain1,reg:6000",
                "x,smap:b=1;a=2;c=3;aa=4;bbb=5;B=6", "x,imap:1=1;256=2;2=3;-1=4;65536=5", "x,lst:z;y;x", "x,show",
                "y,ttlset:v1", "y,ttlget", "late,reg:500", "zz,reg:1000"));
        assertThat(b0.batches()).hasSize(1);
        assertThat(b0.outputs()).containsExactly("in:a:reg:5000", "in:aa:reg:4000", "in:b:reg:5000", "in:ccc:reg:5000",
                "in:chain1:reg:6000", "in:dd:reg:5000", "in:late:reg:500", "in:x:reg:70000", "in:x:reg:2000",
                "in:x:reg:1000", "in:x:reg:300", "in:x:reg:256", "in:x:reg:1", "in:x:reg:2000", "in:x:del:999",
                "in:x:smap:b=1;a=2;c=3;aa=4;bbb=5;B=6", "in:x:imap:1=1;256=2;2=3;-1=4;65536=5", "in:x:lst:z;y;x",
                "in:x:show", "in:y:ttlset:v1", "in:y:ttlget", "in:zz:reg:1000",
                "timer:x:1", "timer:x:256", "timer:x:300", "timer:late:500", "timer:x:1000", "timer:zz:1000");
        assertThat(Log.drain()).contains(
                "  show key=x timers=[256, 1, 300, 70000, 2000, 1000] smap=[(B,6), (a,2), (b,1), (c,3), (aa,4), (bbb,5)]"
                        + " imap=[(65536,5), (256,2), (1,1), (2,3), (-1,4)] lst=[z, y, x] smapExists=true",
                "  ttlget key=y pt=1000,wm=0 tv1=v1 exists=true tl1=[v1] tl1exists=true tm1=[(v1,v1)] tm1exists=true",
                "timer key=x exp=1 pt=1000,wm=0 batch=0 timersNow=[256, 1, 300, 70000, 2000, 1000]",
                "timer key=x exp=256 pt=1000,wm=0 batch=0 timersNow=[256, 300, 70000, 2000, 1000]",
                "timer key=late exp=500 pt=1000,wm=0 batch=0 timersNow=[500]",
                "input key=y pt=1000,wm=0 batch=0 rows=[y,ttlset:v1, y,ttlget] counter=9");

        // t=2000, no data: in ProcessingTime mode every tick runs a batch (spec 3)
        RunResult<String, String, String> b1 = sim.advanceProcessingTime(Duration.ofSeconds(1));
        assertThat(b1.batches()).singleElement().satisfies(b -> {
            assertThat(b.batchId()).isEqualTo(1);
            assertThat(b.hadInput()).isFalse();
            assertThat(b.batchTimestamp()).isEqualTo(t(2000));
        });
        assertThat(b1.outputs()).containsExactly("timer:x:2000");
        assertThat(Log.drain()).containsExactly("init counter=0 batch=1",
                "timer key=x exp=2000 pt=2000,wm=0 batch=1 timersNow=[70000, 2000]", "close");

        RunResult<String, String, String> b2 = sim.runBatchAt(t(3000), List.of("y,ttlget", "x,show", "x,smapclear"));
        assertThat(b2.outputs()).containsExactly("in:x:show", "in:x:smapclear", "in:y:ttlget");
        assertThat(Log.drain()).contains(
                "  show key=x timers=[70000] smap=[(B,6), (a,2), (b,1), (c,3), (aa,4), (bbb,5)]"
                        + " imap=[(65536,5), (256,2), (1,1), (2,3), (-1,4)] lst=[z, y, x] smapExists=true",
                "  after remove all smap.exists=false",
                "  ttlget key=y pt=3000,wm=0 tv1=v1 exists=true tl1=[v1] tl1exists=true tm1=[(v1,v1)] tm1exists=true");

        // spec 5: written at 1000 with TTL 3000, expired at 4000 (batch timestamp >= expiration)
        RunResult<String, String, String> b3 = sim.runBatchAt(t(4000), List.of("y,ttlget"));
        assertThat(b3.outputs()).containsExactly("in:y:ttlget", "timer:aa:4000");
        assertThat(Log.drain()).contains(
                "  ttlget key=y pt=4000,wm=0 tv1=null exists=false tl1=[] tl1exists=false tm1=[] tm1exists=false");

        // spec 15.2: timer ties across keys follow the encoded key bytes: a, b, dd, ccc
        RunResult<String, String, String> b4 = sim.runBatchAt(t(5000), List.of("y,ttlget", "y,ttlset:v2"));
        assertThat(b4.outputs()).containsExactly("in:y:ttlget", "in:y:ttlset:v2",
                "timer:a:5000", "timer:b:5000", "timer:dd:5000", "timer:ccc:5000");
        Log.drain();

        RunResult<String, String, String> b5 = sim.advanceProcessingTime(Duration.ofSeconds(1));
        assertThat(b5.outputs()).containsExactly("timer:chain1:6000");
        Log.drain();

        // spec 1.2 step 7: chain1 registered 5500 inside its own callback at 6000: fires only in the next batch
        RunResult<String, String, String> b6 = sim.runBatchAt(t(8000), List.of("y,ttlget", "q,nullvalue"));
        assertThat(b6.outputs()).containsExactly("in:q:nullvalue", "in:y:ttlget", "timer:chain1:5500");
        assertThat(Log.drain()).contains("  after update(null) get=null exists=false",
                "timer key=chain1 exp=5500 pt=8000,wm=0 batch=6 timersNow=[106000, 5500]");

        assertThat(sim.history().batches()).extracting(BatchResult::batchId).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L);
        assertThat(sim.history().batches()).extracting(BatchResult::hadInput)
                .containsExactly(true, false, true, true, true, false, true);
    }

    @Test
    void spec_6_instance_fields_never_carry_over_between_batches() {
        sim.runBatchAt(t(1000), List.of("a,x", "b,x"));
        sim.runBatchAt(t(2000), List.of("a,x"));
        assertThat(Log.drain()).filteredOn(l -> l.startsWith("input"))
                .extracting(l -> l.substring(l.indexOf("counter=")))
                .containsExactly("counter=1", "counter=2", "counter=1");
    }

    @Test
    void reproduces_run_del_timer_snapshot() {
        sim.runBatchAt(t(1000), List.of("deleter,reg:1500", "deleter,reg:1800", "rereg,reg:1700", "x,reg:1900"));
        Log.drain();
        RunResult<String, String, String> b1 = sim.advanceProcessingTime(Duration.ofSeconds(1));
        // spec 1.2 step 7 / trap 4: a due timer deleted inside another callback still fires
        assertThat(b1.outputs()).containsExactly("timer:deleter:1500", "timer:rereg:1700", "timer:deleter:1800", "timer:x:1900");
        assertThat(Log.drain()).containsExactly("init counter=0 batch=1",
                "timer key=deleter exp=1500 pt=2000,wm=0 batch=1 timersNow=[1800, 1500]",
                "  deleted 1800 now=[1500]",
                "timer key=rereg exp=1700 pt=2000,wm=0 batch=1 timersNow=[1700]",
                "  re-registered same 1700",
                "timer key=deleter exp=1800 pt=2000,wm=0 batch=1 timersNow=[]",
                "  deleted 2100 now=[]",
                "timer key=x exp=1900 pt=2000,wm=0 batch=1 timersNow=[1900]",
                "close");
        // trap 5: re-registering the firing timer's own expiry is lost
        assertThat(sim.advanceProcessingTime(Duration.ofSeconds(1)).outputs()).isEmpty();
        assertThat(sim.state().timers("rereg")).isEmpty();
    }
}
