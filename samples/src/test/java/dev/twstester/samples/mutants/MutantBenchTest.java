package dev.twstester.samples.mutants;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * The seeded-mutant benchmark, briefly: the correct processors pass every property (30 tries,
 * fixed base seed), and one base seed's uniform tries find most mutants within 100 tries.
 */
class MutantBenchTest {

    @Test
    void every_correct_processor_passes_the_properties_its_mutants_are_checked_with() {
        assertThat(Mutants.properties()).hasSizeGreaterThanOrEqualTo(9);
        assertThat(MutantBench.correctFailures(Mutants.properties(), 1L, 30)).isEmpty();
    }

    @Test
    void there_are_at_least_twenty_mutants_each_its_own_class_with_its_bug_in_one_line() {
        List<Mutant<?, ?, ?>> all = Mutants.all();
        assertThat(all).hasSizeGreaterThanOrEqualTo(20);
        Set<String> names = new HashSet<>();
        for (Mutant<?, ?, ?> m : all) {
            assertThat(names.add(m.name())).as("unique name %s", m.name()).isTrue();
            assertThat(m.bug()).isNotBlank().doesNotContain("\n");
            assertThat(m.query().operators().stream().map(q -> q.userClass().getSimpleName())).contains(m.name());
        }
    }

    @Test
    void one_base_seed_finds_most_mutants_within_100_uniform_tries() {
        List<MutantBench.Row> rows = MutantBench.measure(Mutants.all(), GenerationMode.UNIFORM, 1, 100);
        long found = rows.stream().filter(r -> r.foundWithin(100) == 1).count();
        // base seed 1 today: every mutant but DigestTimerOneMsEarly, most within 10 tries (BENCHMARKS.md)
        String table = MutantTable.of(List.of(new MutantBench.ModeRun(GenerationMode.UNIFORM, rows, 0)), 100);
        assertThat(found).as(table).isGreaterThanOrEqualTo(rows.size() / 2);
        assertThat(rows.stream().filter(r -> r.mutant().name().equals("CartCheckoutKeepsTimer")).findFirst()
                .orElseThrow().tries()).containsExactly(1);
    }

    @Test
    void the_tries_to_find_a_mutant_are_the_same_for_the_same_base_seed() {
        Mutant<?, ?, ?> m = Mutants.all().stream().filter(x -> x.name().equals("TtlPagesAppendedNotReplaced")).findFirst()
                .orElseThrow();
        int first = MutantBench.triesToFind(m, GenerationMode.UNIFORM, 7L, 200);
        assertThat(first).isBetween(1, 200);
        assertThat(MutantBench.triesToFind(m, GenerationMode.UNIFORM, 7L, 200)).isEqualTo(first);
    }

    @Test
    void the_table_shows_each_mode_s_medians_finds_within_100_and_summary() {
        Mutant<?, ?, ?> m = Mutants.all().get(0);
        List<MutantBench.Row> rows = List.of(new MutantBench.Row(m, List.of(3, 1, 150)),
                new MutantBench.Row(m, List.of(MutantBench.NOT_FOUND, MutantBench.NOT_FOUND, 40)));
        GenerationMode other = new GenerationMode("other", p -> p);
        String table = MutantTable.of(List.of(new MutantBench.ModeRun(GenerationMode.UNIFORM, rows, 2_000_000_000L),
                new MutantBench.ModeRun(other, List.of(rows.get(1), rows.get(0)), 1_000_000_000L)), 200);
        String mutant = "| " + m.name() + " | " + m.bug() + " | " + m.property().name() + " | ";
        assertThat(table).startsWith("| mutant | bug | property | median tries (uniform) | found within 100 (uniform) "
                        + "| tries per base seed (uniform) | median tries (other) |")
                .contains(mutant + "3 | 2/3 | 3 1 150 | >200 | 1/3 | >200 >200 40 |")
                .contains(mutant + ">200 | 1/3 | >200 >200 40 | 3 | 2/3 | 3 1 150 |")
                .contains("2 mutants, uniform generation, cap 200 tries: median of the medians >200; "
                        + "median at most 100 tries for 1 of 2 mutants (50%); 594 tries in 2.0 s (3.37 ms per try)")
                .contains("2 mutants, other generation, cap 200 tries: median of the medians >200;");
        assertThatThrownBy(() -> MutantTable.of(List.of(), 200)).hasMessageContaining("pass at least one run");
    }

    @Test
    void an_unknown_generation_mode_names_the_known_ones() {
        assertThat(GenerationMode.named("feedback")).isSameAs(GenerationMode.FEEDBACK);
        assertThatThrownBy(() -> GenerationMode.named("random")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown generation mode \"random\"; known: uniform, feedback");
    }

    @Test
    void feedback_generation_finds_the_ttl_mutant_uniform_needs_38_tries_for_sooner_and_reproducibly() {
        Mutant<?, ?, ?> m = Mutants.all().stream().filter(x -> x.name().equals("TtlClicksFromPageList")).findFirst()
                .orElseThrow();
        // BENCHMARKS.md, seeded mutants: base seed 3 takes 74 feedback tries against 18 uniform ones, the
        // other eight seeds as many or fewer with feedback; seed 5: 9 against 20
        int feedback = MutantBench.triesToFind(m, GenerationMode.FEEDBACK, 5L, 200);
        assertThat(feedback).isEqualTo(9);
        assertThat(MutantBench.triesToFind(m, GenerationMode.FEEDBACK, 5L, 200)).isEqualTo(feedback);
        assertThat(MutantBench.triesToFind(m, GenerationMode.UNIFORM, 5L, 200)).isEqualTo(20);
    }
}
