package dev.twstester.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.twstester.Scenario;
import dev.twstester.io.ScenarioPlan.Step;

class ScenarioPlanTest {
    private static final Instant T1 = Instant.parse("2024-05-01T10:00:00Z");
    private static final Instant T2 = Instant.parse("2024-05-01T10:05:00.250Z");

    private static ScenarioPlan parse(String text) {
        return ScenarioPlan.parse(text.lines().toList(), "plan.txt");
    }

    @Test
    void reads_every_step_comments_and_the_old_restart_line_and_stops_at_the_first_blank_line() {
        ScenarioPlan plan = parse("""
                # replay plan
                input 001.jsonl at=current
                input 002.jsonl at=2024-05-01T10:00:00Z
                  input   003.jsonl
                add 004.jsonl
                tick to=2024-05-01T10:05:00.250Z
                stop
                # a comment between steps
                add 005.jsonl
                start
                restart

                input 999.jsonl at=current   (notes: not read)
                """);

        assertThat(plan.steps()).containsExactly(
                new Step(new Scenario.Input<>(List.of(), null), "001.jsonl", 2),
                new Step(new Scenario.Input<>(List.of(), T1), "002.jsonl", 3),
                new Step(new Scenario.Input<>(List.of(), null), "003.jsonl", 4),
                new Step(new Scenario.AddData<>(List.of()), "004.jsonl", 5),
                new Step(new Scenario.Tick<>(T2), null, 6),
                new Step(new Scenario.Stop<>(), null, 7),
                new Step(new Scenario.AddData<>(List.of()), "005.jsonl", 9),
                new Step(new Scenario.Start<>(), null, 10),
                new Step(new Scenario.Stop<>(), null, 11),
                new Step(new Scenario.Start<>(), null, 11));
        assertThat(plan.where(plan.steps().get(4))).isEqualTo("plan.txt:6");
        assertThat(ScenarioPlan.of("options", List.of(Step.tick(T2))).where(Step.tick(T2))).isEqualTo("options");
        assertThat(plan.source()).isEqualTo("plan.txt");
        assertThat(plan.toString()).isEqualTo("""
                input 001.jsonl at=current
                input 002.jsonl at=2024-05-01T10:00:00Z
                input 003.jsonl at=current
                add 004.jsonl
                tick to=2024-05-01T10:05:00.250Z
                stop
                add 005.jsonl
                start
                stop
                start
                """);
    }

    @Test
    void a_blank_first_line_ends_the_plan_at_once() {
        assertThat(parse("\ninput 001.jsonl\n").steps()).isEmpty();
    }

    @Test
    void errors_name_the_plan_and_line_and_say_what_to_write() {
        assertThatThrownBy(() -> parse("input 001.jsonl\nwait 5 minutes\n"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("plan.txt:2: cannot read \"wait 5 minutes\"; a step is \"input 001.jsonl at=current\","
                        + " \"input 002.jsonl at=2024-05-01T10:00:00Z\", \"add 003.jsonl\","
                        + " \"tick to=2024-05-01T10:05:00Z\", \"stop\", \"start\", \"restart\" or \"deploy com.acme.Carts#fixed\"");
        assertThatThrownBy(() -> parse("tick to=10:05\n"))
                .hasMessage("plan.txt:1: cannot parse \"10:05\" as an instant; write ISO-8601 UTC like 2024-05-01T10:00:00Z");
        assertThatThrownBy(() -> parse("input 001.jsonl when=now\n"))
                .hasMessage("plan.txt:1: expected at=... in \"input 001.jsonl when=now\"");
        assertThatThrownBy(() -> parse("tick\n")).hasMessage("plan.txt:1: \"tick\": write \"tick to=INSTANT\"");
        assertThatThrownBy(() -> parse("add\n")).hasMessage("plan.txt:1: \"add\": write \"add FILE\"");
        assertThatThrownBy(() -> parse("input 001.jsonl\nrestart at=1970-01-01T00:05:00Z\n"))
                .hasMessage("plan.txt:2: \"restart at=1970-01-01T00:05:00Z\": restart takes nothing after it; write"
                        + " \"restart\" alone on its line (the query restarts from its checkpoint there)");
        assertThatThrownBy(() -> parse("stop now\n")).hasMessage("plan.txt:1: \"stop now\": stop takes nothing after it;"
                + " write \"stop\" alone on its line");
        assertThatThrownBy(() -> parse("start\n"))
                .hasMessage("plan.txt:1: start: the query is running here; a \"stop\" line must come first (or write"
                        + " \"restart\" for both)");
        assertThatThrownBy(() -> parse("stop\nrestart\n"))
                .hasMessage("plan.txt:2: restart: the query is already stopped here; a \"start\" line must come first");
        assertThatThrownBy(() -> parse("stop\ninput 001.jsonl\n"))
                .hasMessage("plan.txt:2: \"input 001.jsonl\": the query is stopped here; a batch needs a \"start\" line"
                        + " before it (use \"add FILE\" for rows that arrive while it is stopped)");
    }

    @Test
    void steps_check_their_parts_and_hold_no_rows() {
        assertThatThrownBy(() -> new Step(new Scenario.Input<>(List.of(), null), null, 0))
                .hasMessage("input and add steps need a rows file");
        assertThatThrownBy(() -> new Step(new Scenario.Tick<>(T1), "x.jsonl", 0))
                .hasMessage("tick, stop, start and deploy steps have no rows file");
        assertThatThrownBy(() -> Step.of(new Scenario.Stop<String>(), "x.jsonl"))
                .hasMessage("tick, stop, start and deploy steps have no rows file");
        assertThat(Step.of(new Scenario.AddData<>(List.of("r")), "a.jsonl")).as("given rows are dropped")
                .isEqualTo(Step.add("a.jsonl"));
        assertThat(Step.input("a.jsonl", T1).withRows(List.of("r"))).isEqualTo(new Scenario.Input<>(List.of("r"), T1));
        assertThat(Step.add("a.jsonl").withRows(List.of("r"))).isEqualTo(new Scenario.AddData<>(List.of("r")));
        assertThat(Step.tick(T2).<String>withRows(List.of())).isEqualTo(new Scenario.Tick<String>(T2));
        assertThat(Step.of(new Scenario.Start<>(), null).<String>withRows(List.of("ignored")))
                .isEqualTo(new Scenario.Start<String>());
        assertThat(Step.input("a.jsonl", null).planLine()).isEqualTo("input a.jsonl at=current");
        assertThat(Step.tick(T2).hasRows()).isFalse();
        assertThatThrownBy(() -> ScenarioPlan.of("options", List.of()).resolve(Step.tick(T2)))
                .hasMessage("\"tick to=2024-05-01T10:05:00.250Z\" has no rows file");
    }

    @Test
    void writes_rows_files_and_the_plan_and_reads_the_same_scenario_back(@TempDir Path dir) throws IOException {
        // GIVEN files an earlier, longer scenario left, and a file that is not a batch
        Files.writeString(dir.resolve("009.jsonl"), "{}\n");
        Files.writeString(dir.resolve("notes.jsonl"), "kept\n");
        Scenario<String> scenario = Scenario.<String>builder()
                .batch(List.of("{\"k\":\"a\"}", "{\"k\":\"b\"}"))
                .batchAt(T1, List.of())
                .addData(List.of("{\"k\":\"c\"}"))
                .tick(T2)
                .stop()
                .addData(List.of("{\"k\":\"d\"}"))
                .start()
                .build();

        ScenarioPlan.Writer<String> w = ScenarioPlan.writer(dir, row -> row);
        w.comment("shuffle partitions: 3\nsecond line");
        List<String> names = scenario.steps().stream().map(step -> {
            try {
                return w.step(step);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).toList();
        List<Path> files = w.finish("notes after the plan");

        assertThat(names).containsExactly("001.jsonl", "002.jsonl", "003.jsonl", null, null, "004.jsonl", null);
        assertThat(files).containsExactly(dir.resolve("001.jsonl"), dir.resolve("002.jsonl"), dir.resolve("003.jsonl"),
                dir.resolve("004.jsonl"));
        assertThat(Files.readString(dir.resolve("001.jsonl"))).isEqualTo("{\"k\":\"a\"}\n{\"k\":\"b\"}\n");
        assertThat(dir.resolve("002.jsonl")).isEmptyFile();
        try (Stream<Path> list = Files.list(dir)) {
            assertThat(list.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder(
                    "001.jsonl", "002.jsonl", "003.jsonl", "004.jsonl", "notes.jsonl", "scenario.txt");
        }
        assertThat(Files.readString(dir.resolve(ScenarioPlan.FILE_NAME))).isEqualTo("""
                # replay plan: one line per step, in order; input files hold one JSON row per line
                # shuffle partitions: 3
                # second line
                input 001.jsonl at=current
                input 002.jsonl at=2024-05-01T10:00:00Z
                add 003.jsonl
                tick to=2024-05-01T10:05:00.250Z
                stop
                add 004.jsonl
                start

                notes after the plan
                """);

        ScenarioPlan plan = ScenarioPlan.read(dir.resolve(ScenarioPlan.FILE_NAME));
        assertThat(plan.source()).isEqualTo(dir.resolve(ScenarioPlan.FILE_NAME).toString());
        assertThat(plan.resolve(plan.steps().get(0))).isEqualTo(dir.toAbsolutePath().normalize().resolve("001.jsonl"));
        assertThat(plan.toScenario(ScenarioPlanTest::lines)).isEqualTo(scenario);
        // the short form writes the same
        Path again = dir.resolve("again");
        ScenarioPlan.write(scenario, again, row -> row, null);
        assertThat(ScenarioPlan.read(again.resolve(ScenarioPlan.FILE_NAME)).toScenario(ScenarioPlanTest::lines))
                .isEqualTo(scenario);
        assertThat(Files.readString(again.resolve(ScenarioPlan.FILE_NAME))).doesNotContain("\n\n");
    }

    @Test
    void reading_a_plan_file_names_it_in_errors(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("scenario.txt");
        Files.writeString(file, "# plan\ninput 001.jsonl\nstart\n");
        assertThatThrownBy(() -> ScenarioPlan.read(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(file + ":3: start: the query is running here");
    }

    @Test
    void rejects_rows_whose_json_is_not_one_line(@TempDir Path dir) throws IOException {
        ScenarioPlan.Writer<String> w = ScenarioPlan.writer(dir, row -> row);
        assertThatThrownBy(() -> w.step(new Scenario.AddData<>(List.of("{\n}"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("toJsonLine must return one JSON object on one line, but returned a string with a line break"
                        + " for row {\n}");
    }

    @Test
    void a_deploy_line_names_the_new_version_and_starts_a_stopped_query() {
        ScenarioPlan plan = parse("input 001.jsonl\nstop\nadd 002.jsonl\ndeploy com.acme.Carts#fixed\n"
                + "input 003.jsonl\n");

        assertThat(plan.steps().get(3)).isEqualTo(new Step(new Scenario.Deploy<>("com.acme.Carts#fixed", null), null, 4));
        assertThat(plan.steps().get(3).planLine()).isEqualTo("deploy com.acme.Carts#fixed");
        Scenario.Step<String> withRows = plan.steps().get(3).withRows(List.of("ignored"));
        assertThat(withRows).isEqualTo(new Scenario.Deploy<String>("com.acme.Carts#fixed", null));
        assertThatThrownBy(() -> parse("input 001.jsonl\ndeploy\n"))
                .hasMessage("plan.txt:2: \"deploy\": write \"deploy QUERY\", the new version's query method, like"
                        + " \"deploy com.acme.Carts#fixed\"");
        assertThatThrownBy(() -> parse("deploy a b\n")).hasMessageStartingWith("plan.txt:1: \"deploy a b\": write");
    }

    @Test
    void a_written_deploy_step_reads_back_as_its_line(@TempDir Path dir) throws IOException {
        Scenario<String> scenario = new Scenario<>(List.of(new Scenario.Input<>(List.of("{}"), null),
                new Scenario.Deploy<>("com.acme.Carts#fixed", null)));
        ScenarioPlan.write(scenario, dir, row -> row, null);

        assertThat(Files.readString(dir.resolve(ScenarioPlan.FILE_NAME))).endsWith("input 001.jsonl at=current\n"
                + "deploy com.acme.Carts#fixed\n");
        assertThat(ScenarioPlan.read(dir.resolve(ScenarioPlan.FILE_NAME)).toScenario(ScenarioPlanTest::lines))
                .isEqualTo(scenario);
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
