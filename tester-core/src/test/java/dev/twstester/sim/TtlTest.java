package dev.twstester.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.twstester.TwsQuery;

/** TTL as Spark 4.2.0 does it (docs/semantics.md, section 6): ProcessingTime only, TTL 3000 ms here. */
class TtlTest {
    private TwsSimulator<String, String, String> sim;

    @BeforeEach
    void setUp() {
        sim = new TwsSimulator<>(TwsQuery.builder(TtlProcessor::new)
                .keyBy(s -> s.substring(0, s.indexOf(',')), Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .timeMode(TimeMode.ProcessingTime())
                .build());
    }

    private List<String> at(long ms, String... rows) {
        return sim.runBatchAt(Instant.ofEpochMilli(ms), List.of(rows)).outputs();
    }

    @Test
    void spec_5_expiration_is_write_time_plus_ttl_and_expired_once_the_batch_timestamp_reaches_it() {
        at(1000, "k,set:v1", "k,append:a", "k,mput:x=1");
        assertThat(at(3999, "k,get")).containsExactly("3999 value=v1/true list=[a]/true map=[(x,1)]/true");
        assertThat(at(4000, "k,get")).containsExactly("4000 value=null/false list=[]/false map=[]/false");
        assertThat(sim.state().keys()).as("cleanup at the end of the 4000 batch removed everything").isEmpty();
    }

    @Test
    void spec_5_list_elements_expire_one_by_one_append_gives_only_new_elements_a_fresh_expiry() {
        at(1000, "k,append:a");
        at(2000, "k,append:b");
        assertThat(at(4000, "k,get")).containsExactly("4000 value=null/false list=[b]/true map=[]/false");
        assertThat(sim.state().<String>list("list", "k")).containsExactly("b");
    }

    @Test
    void spec_5_list_put_gives_every_element_the_fresh_expiry() {
        at(1000, "k,append:a");
        at(2000, "k,put:c;d");
        assertThat(at(4500, "k,get")).containsExactly("4500 value=null/false list=[c, d]/true map=[]/false");
    }

    @Test
    void spec_15_9_update_refreshes_the_expiry_even_with_an_unchanged_value_and_reads_never_refresh() {
        at(1000, "k,set:v", "k,mput:x=1", "k,mput:y=2");
        at(2000, "k,set:v", "k,mput:y=2", "k,get");
        assertThat(at(4000, "k,get")).containsExactly("4000 value=v/true list=[]/false map=[(y,2)]/true");
        assertThat(at(5000, "k,get")).containsExactly("5000 value=null/false list=[]/false map=[]/false");
    }

    @Test
    void spec_15_9_a_value_rewritten_at_its_expiry_tick_is_visible_and_survives_cleanup() {
        at(1000, "k,set:old");
        assertThat(at(4000, "k,get", "k,set:new", "k,get")).containsExactly(
                "4000 value=null/false list=[]/false map=[]/false", "4000 value=new/true list=[]/false map=[]/false");
        assertThat(sim.state().<String>value("value", "k")).contains("new");
    }

    @Test
    void spec_3_ttl_expires_in_no_data_batches_of_processing_time_ticks() {
        at(1000, "k,set:v");
        assertThat(sim.advanceProcessingTime(Duration.ofMillis(3000)).batches()).hasSize(1);
        assertThat(sim.state().keys()).isEmpty();
    }

    @Test
    void state_view_writes_take_the_ttl_of_the_variable_from_the_current_processing_time() {
        sim.setProcessingTime(Instant.ofEpochMilli(10_000));
        sim.state().setValue("value", "k", "seeded");
        assertThat(at(12_999, "k,get")).containsExactly("12999 value=seeded/true list=[]/false map=[]/false");
        assertThat(at(13_000, "k,get")).containsExactly("13000 value=null/false list=[]/false map=[]/false");
    }
}
