package dev.twstester.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Date;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;

import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.streaming.OutputMode;
import org.apache.spark.sql.streaming.TimeMode;
import org.junit.jupiter.api.Test;

import dev.twstester.BatchResult;
import dev.twstester.FailedBatch;
import dev.twstester.FiredTimer;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.sim.TwsSimulator;

import scala.Tuple2;

/** RunResultJson: the written form, round trips through each kind of encoder, and read errors. */
class RunResultJsonTest {
    private static final Instant EPOCH = Instant.EPOCH;

    private static final TwsQuery<String, String, String> STRINGS = TwsQuery.<String, String, String>builder(NoOpProcessor::new)
            .keyBy(s -> s.substring(0, 1), Encoders.STRING())
            .input(Encoders.STRING())
            .output(Encoders.STRING())
            .build();

    private static final TwsQuery<Long, Long, Long> LONGS = TwsQuery.<Long, Long, Long>builder(NoOpProcessor::new)
            .keyBy(n -> n % 2, Encoders.LONG())
            .input(Encoders.LONG())
            .output(Encoders.LONG())
            .build();

    private static final TwsQuery<String, Reading, Tuple2<String, Long>> READINGS = CountProcessor.query();

    private static RunResult<String, String, String> stringRun() {
        return new RunResult<>(List.of(
                new BatchResult<>(0, true, List.of("a,1", "b,2"), List.of(), EPOCH, EPOCH, EPOCH,
                        List.of("a:1", "b:1"), List.of()),
                new BatchResult<>(1, false, List.of(), List.of(), EPOCH, Instant.parse("1970-01-01T00:00:10Z"),
                        Instant.parse("1970-01-01T00:00:01Z"), List.of("a:timer"),
                        List.of(new FiredTimer<>("a", Instant.parse("1970-01-01T00:00:05Z"))))));
    }

    private static Reading reading(String sensor, String ts, double value) {
        Instant at = Instant.parse(ts);
        return new Reading(sensor, Timestamp.from(at), Date.valueOf(LocalDate.of(2024, 5, 1)), value);
    }

    @Test
    void json_lines_hold_one_compact_object_per_batch_with_flat_values_bare() {
        assertThat(RunResultJson.writeLines(stringRun(), STRINGS)).isEqualTo(
                "{\"batchId\":0,\"hadInput\":true,\"batchTimestamp\":\"1970-01-01T00:00:00Z\","
                + "\"lateWatermark\":\"1970-01-01T00:00:00Z\",\"evictionWatermark\":\"1970-01-01T00:00:00Z\","
                + "\"input\":[\"a,1\",\"b,2\"],\"droppedLate\":[],\"outputs\":[\"a:1\",\"b:1\"],\"firedTimers\":[]}\n"
                + "{\"batchId\":1,\"hadInput\":false,\"batchTimestamp\":\"1970-01-01T00:00:01Z\","
                + "\"lateWatermark\":\"1970-01-01T00:00:00Z\",\"evictionWatermark\":\"1970-01-01T00:00:10Z\","
                + "\"input\":[],\"droppedLate\":[],\"outputs\":[\"a:timer\"],"
                + "\"firedTimers\":[{\"key\":\"a\",\"expiry\":\"1970-01-01T00:00:05Z\"}]}\n");
    }

    @Test
    void strings_round_trip_in_both_forms() {
        RunResult<String, String, String> run = stringRun();
        String doc = RunResultJson.write(run, STRINGS);
        assertThat(doc).startsWith("{\n  \"format\" : \"twstester-run\",\n  \"version\" : 1,\n  \"batches\" : [ {");
        assertThat(RunResultJson.read(doc, STRINGS)).isEqualTo(run);
        assertThat(RunResultJson.readLines(RunResultJson.writeLines(run, STRINGS), STRINGS)).isEqualTo(run);
    }

    @Test
    void longs_round_trip_as_bare_numbers() {
        RunResult<Long, Long, Long> run = new RunResult<>(List.of(new BatchResult<>(0, true, List.of(1L, 2L, 3L),
                List.of(3L), EPOCH, EPOCH, EPOCH, List.of(Long.MAX_VALUE, -1L),
                List.of(new FiredTimer<>(1L, Instant.ofEpochMilli(1500))))));
        String lines = RunResultJson.writeLines(run, LONGS);
        assertThat(lines).contains("\"input\":[1,2,3],\"droppedLate\":[3],\"outputs\":[9223372036854775807,-1],"
                + "\"firedTimers\":[{\"key\":1,\"expiry\":\"1970-01-01T00:00:01.500Z\"}]");
        assertThat(RunResultJson.readLines(lines, LONGS)).isEqualTo(run);
        assertThat(RunResultJson.read(RunResultJson.write(run, LONGS), LONGS)).isEqualTo(run);
    }

    @Test
    void beans_with_timestamps_and_tuples_round_trip_as_objects_whatever_the_default_time_zone() {
        Reading r = reading("s1", "2024-05-01T10:00:00.123456Z", 1.5);
        RunResult<String, Reading, Tuple2<String, Long>> run = new RunResult<>(List.of(new BatchResult<>(7, true,
                List.of(r), List.of(), EPOCH, EPOCH, EPOCH, List.of(new Tuple2<>("s1", 1L)), List.of())));
        String lines = RunResultJson.writeLines(run, READINGS);
        assertThat(lines).contains("\"input\":[{\"day\":\"2024-05-01\",\"sensor\":\"s1\","
                + "\"ts\":\"2024-05-01T10:00:00.123456Z\",\"value\":1.5}]");
        assertThat(lines).contains("\"outputs\":[{\"_1\":\"s1\",\"_2\":1}]");
        RunResult<String, Reading, Tuple2<String, Long>> back = RunResultJson.readLines(lines, READINGS);
        assertThat(back).isEqualTo(run);
        assertThat(back.batches().get(0).input().get(0).getTs().getNanos()).isEqualTo(123_456_000);
    }

    @Test
    void a_simulator_run_round_trips() {
        TwsSimulator<String, Reading, Tuple2<String, Long>> sim = new TwsSimulator<>(READINGS);
        sim.runBatch(reading("s1", "2024-05-01T10:00:00.123456Z", 1), reading("s2", "2024-05-01T10:00:01Z", 2));
        sim.runBatch(reading("s1", "2024-05-01T10:00:30Z", 3), reading("s2", "2024-05-01T09:00:00Z", 4));
        RunResult<String, Reading, Tuple2<String, Long>> run = sim.history();
        assertThat(run.droppedLate()).extracting(Reading::getSensor).containsExactly("s2");
        assertThat(run.firedTimers()).extracting(FiredTimer::key).containsExactly("s1", "s2");

        assertThat(RunResultJson.read(RunResultJson.write(run, READINGS), READINGS)).isEqualTo(run);
        assertThat(RunResultJson.readLines(RunResultJson.writeLines(run, READINGS), READINGS)).isEqualTo(run);
    }

    @Test
    void a_bad_value_names_the_line_batch_list_and_field() {
        String lines = RunResultJson.writeLines(new RunResult<>(List.of(
                new BatchResult<>(0, false, List.of(), List.of(), EPOCH, EPOCH, EPOCH, List.of(), List.of()),
                new BatchResult<>(1, true, List.of(reading("s1", "2024-05-01T10:00:00Z", 1)), List.of(), EPOCH, EPOCH,
                        EPOCH, List.<Tuple2<String, Long>>of(), List.<FiredTimer<String>>of()))), READINGS);
        String broken = lines.replace("2024-05-01T10:00:00Z", "10:61");
        assertThatThrownBy(() -> RunResultJson.readLines(broken, READINGS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("line 2: batch 1 input[0]: field \"ts\": cannot parse \"10:61\" as timestamp; "
                        + "write an ISO-8601 instant like \"2024-05-01T10:00:00Z\"");
    }

    @Test
    void malformed_batches_are_rejected_with_what_to_write() {
        String line = RunResultJson.writeLines(stringRun(), STRINGS).split("\n")[0];
        assertThat(linesError(line.replace("\"hadInput\"", "\"hadinput\"")))
                .isEqualTo("line 1: batch 0: unknown member \"hadinput\"; a batch has " + batchFields());
        assertThat(linesError(line.replace("\"batchId\":0,", "")))
                .isEqualTo("line 1: batch on this line: \"batchId\" is missing; every batch has " + batchFields());
        assertThat(linesError(line.replace("\"1970-01-01T00:00:00Z\",\"lateWatermark\"", "\"noon\",\"lateWatermark\"")))
                .isEqualTo("line 1: batch 0: \"batchTimestamp\" is \"noon\"; write an ISO-8601 instant like \"2024-05-01T10:00:00Z\"");
        assertThat(linesError("\n" + line.replace("[\"a,1\",\"b,2\"]", "[\"a,1\",null]")))
                .isEqualTo("line 2: batch 0 input[1]: null; a row or key is never null, give a value");
        // a flat output encoder's null row (a mapGroupsWithState function's null result) reads back as null
        assertThat(RunResultJson.readLines(line.replace("[\"a:1\",\"b:1\"]", "[\"a:1\",null]"), STRINGS)
                .outputs()).containsExactly("a:1", null);
        assertThat(linesError("{\"batchId\":")).startsWith("line 1: not valid JSON: Unexpected end-of-input");
        assertThatThrownBy(() -> RunResultJson.read("{\"format\":\"twstester-run\",\"version\":2,\"batches\":[]}", STRINGS))
                .hasMessage("version 2 is not supported; this twstester reads version 1");
        assertThatThrownBy(() -> RunResultJson.read(line, STRINGS))
                .hasMessage("not a twstester run: expected an object {\"format\":\"twstester-run\",\"version\":1,"
                        + "\"batches\":[...]}; for one batch per line use readLines");
    }

    @Test
    void output_partitions_are_written_after_the_outputs_and_read_back() {
        RunResult<String, String, String> run = new RunResult<>(List.of(new BatchResult<>(0, true, List.of("a,1"),
                List.of(), EPOCH, EPOCH, EPOCH, List.of("c:1", "a:1", "b:1"), List.of(), java.util.Map.of(),
                List.of(0, 0, 2))));
        String lines = RunResultJson.writeLines(run, STRINGS);
        assertThat(lines).contains("\"outputs\":[\"c:1\",\"a:1\",\"b:1\"],\"outputPartitions\":[0,0,2],"
                + "\"firedTimers\":[]");
        RunResult<String, String, String> back = RunResultJson.readLines(lines, STRINGS);
        assertThat(back).isEqualTo(run);
        assertThat(back.batches().get(0).outputsOfPartition(2)).containsExactly("b:1");
        assertThat(RunResultJson.read(RunResultJson.write(run, STRINGS), STRINGS)).isEqualTo(run);

        // written without them (the format before they existed): read as not known
        RunResult<String, String, String> old = RunResultJson.readLines(lines.replace(",\"outputPartitions\":[0,0,2]",
                ""), STRINGS);
        assertThat(old.batches().get(0).outputs()).containsExactly("c:1", "a:1", "b:1");
        assertThat(old.batches().get(0).knowsOutputPartitions()).isFalse();

        assertThat(linesError(lines.replace("[0,0,2]", "[0,2]"))).isEqualTo("line 1: batch 0: \"outputPartitions\" has 2 "
                + "entries for 3 outputs; give one partition number per output row");
        assertThat(linesError(lines.replace("[0,0,2]", "[0,-1,2]"))).isEqualTo("line 1: batch 0 outputPartitions[1]: -1 "
                + "is not a partition number; write a whole number from 0");
        assertThat(linesError(lines.replace("[0,0,2]", "\"0,0,2\""))).isEqualTo("line 1: batch 0: \"outputPartitions\" "
                + "is \"0,0,2\"; write an array of one partition number per output row");
    }

    @Test
    void a_simulator_run_with_three_partitions_round_trips_its_partitions() {
        TwsQuery<String, String, String> query = TwsQuery.builder(CountStrings::new)
                .keyBy(s -> s, Encoders.STRING())
                .input(Encoders.STRING())
                .output(Encoders.STRING())
                .shufflePartitions(3)
                .build();
        // the partitions of a live Spark 4.2.0 run with 3 partitions: y 0, aa 1, a 2
        RunResult<String, String, String> run = new TwsSimulator<>(query).runBatch("a", "aa", "y", "a");
        assertThat(run.batches().get(0).outputPartitions()).containsExactly(0, 1, 2);
        assertThat(RunResultJson.writeLines(run, query)).contains("\"outputs\":[\"y:1\",\"aa:1\",\"a:2\"],"
                + "\"outputPartitions\":[0,1,2]");
        assertThat(RunResultJson.readLines(RunResultJson.writeLines(run, query), query)).isEqualTo(run);
    }

    /** Emits "key:number of rows" per key and batch. */
    public static class CountStrings extends org.apache.spark.sql.streaming.StatefulProcessor<String, String, String> {
        @Override
        public void init(OutputMode outputMode, TimeMode timeMode) {
        }

        @Override
        public scala.collection.Iterator<String> handleInputRows(String key, scala.collection.Iterator<String> rows,
                org.apache.spark.sql.streaming.TimerValues timerValues) {
            return scala.jdk.javaapi.CollectionConverters.asScala(List.of(key + ":" + rows.size()).iterator());
        }
    }

    private static final FailedBatch POISONED = new FailedBatch(2, true, 1, Instant.parse("1970-01-01T00:00:02Z"),
            EPOCH, Instant.parse("1970-01-01T00:00:01Z"), "TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR", "poison row for key b");
    /** A no-data batch whose timer threw an exception without a message or an error class. */
    private static final FailedBatch NO_DATA = new FailedBatch(3, false, 0, Instant.parse("1970-01-01T00:00:09Z"),
            Instant.parse("1970-01-01T00:00:01Z"), Instant.parse("1970-01-01T00:00:10Z"), null, null);

    private static RunResult<String, String, String> failedRun() {
        return new RunResult<>(stringRun().batches(), List.of(POISONED, POISONED, NO_DATA));
    }

    @Test
    void failed_batches_are_written_after_the_batches_with_every_field_and_read_back() {
        RunResult<String, String, String> run = failedRun();
        String lines = RunResultJson.writeLines(run, STRINGS);
        assertThat(lines).startsWith(RunResultJson.writeLines(stringRun(), STRINGS)).endsWith(
                "{\"failedBatch\":{\"batchId\":2,\"hadInput\":true,\"rows\":1,\"batchTimestamp\":\"1970-01-01T00:00:02Z\","
                + "\"lateWatermark\":\"1970-01-01T00:00:00Z\",\"evictionWatermark\":\"1970-01-01T00:00:01Z\","
                + "\"errorClass\":\"TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR\",\"rootMessage\":\"poison row for key b\"}}\n"
                + "{\"failedBatch\":{\"batchId\":3,\"hadInput\":false,\"rows\":0,\"batchTimestamp\":\"1970-01-01T00:00:09Z\","
                + "\"lateWatermark\":\"1970-01-01T00:00:01Z\",\"evictionWatermark\":\"1970-01-01T00:00:10Z\","
                + "\"errorClass\":null,\"rootMessage\":null}}\n");
        assertThat(RunResultJson.readLines(lines, STRINGS)).isEqualTo(run);
        assertThat(RunResultJson.readLines(lines, STRINGS).failures()).containsExactly(POISONED, POISONED, NO_DATA);

        String doc = RunResultJson.write(run, STRINGS);
        assertThat(doc).contains("\"failures\" : [ {\n    \"batchId\" : 2,");
        assertThat(doc.indexOf("\"failures\"")).isGreaterThan(doc.lastIndexOf("\"firedTimers\""));
        assertThat(RunResultJson.read(doc, STRINGS)).isEqualTo(run);

        // a run without failures is written as before: no failures member, no failedBatch line
        assertThat(RunResultJson.write(stringRun(), STRINGS)).doesNotContain("failures");
        assertThat(RunResultJson.writeLines(stringRun(), STRINGS)).doesNotContain("failedBatch");
        // a run of failures only (the first batch failed at every start)
        RunResult<String, String, String> none = new RunResult<>(List.of(), List.of(NO_DATA));
        assertThat(RunResultJson.read(RunResultJson.write(none, STRINGS), STRINGS)).isEqualTo(none);
        assertThat(RunResultJson.readLines(RunResultJson.writeLines(none, STRINGS), STRINGS)).isEqualTo(none);
    }

    @Test
    void a_query_of_several_operators_keeps_its_failures_at_the_run_level() {
        TwsQuery<String, String, String> chain = STRINGS.then(STRINGS);
        BatchResult<String, String, String> first = new BatchResult<>(0, true, List.of("a,1"), List.of(), EPOCH, EPOCH,
                EPOCH, List.of("a:1"), List.of());
        BatchResult<String, String, String> second = new BatchResult<>(0, true, List.of("a:1"), List.of(), EPOCH, EPOCH,
                EPOCH, List.of("a:2"), List.of());
        RunResult<String, String, String> run = new RunResult<>(List.of(new BatchResult<>(0, true, List.of("a,1"),
                List.of(), EPOCH, EPOCH, EPOCH, List.of("a:2"), List.of(), java.util.Map.of(), List.of(),
                List.of(first, second))), List.of(POISONED, NO_DATA));

        RunResult<String, String, String> fromDoc = RunResultJson.read(RunResultJson.write(run, chain), chain);
        assertThat(fromDoc).isEqualTo(run);
        assertThat(fromDoc.<String, String, String>operator(1).failures()).containsExactly(POISONED, NO_DATA);
        String lines = RunResultJson.writeLines(run, chain);
        assertThat(lines.split("\n")).hasSize(3);
        assertThat(RunResultJson.readLines(lines, chain)).isEqualTo(run);
    }

    @Test
    void a_malformed_failed_batch_names_the_line_and_the_field() {
        String lines = RunResultJson.writeLines(failedRun(), STRINGS);
        assertThat(linesError(lines.replace("\"rows\":1,", "\"rows\":\"one\",")))
                .isEqualTo("line 3: failed batch 2: \"rows\" is \"one\"; write the number of rows the batch read, a whole "
                        + "number from 0");
        assertThat(linesError(lines.replace("\"hadInput\":false,\"rows\"", "\"hadInput\":\"no\",\"rows\"")))
                .isEqualTo("line 5: failed batch 3: \"hadInput\" is \"no\"; write true or false");
        assertThat(linesError(lines.replace("\"errorClass\":null", "\"errorClass\":7")))
                .isEqualTo("line 5: failed batch 3: \"errorClass\" is 7; write a string or null");
        assertThat(linesError(lines.replace("\"rootMessage\":null", "\"rootMessage\":null,\"cause\":\"x\"")))
                .isEqualTo("line 5: failed batch 3: unknown member \"cause\"; a failed batch has " + failureFields());
        assertThat(linesError(lines.replace("\"batchTimestamp\":\"1970-01-01T00:00:09Z\"", "\"batchTimestamp\":\"9s\"")))
                .isEqualTo("line 5: failed batch 3: \"batchTimestamp\" is \"9s\"; write an ISO-8601 instant like "
                        + "\"2024-05-01T10:00:00Z\"");
        assertThat(linesError(lines.replace(",\"rootMessage\":null", "")))
                .isEqualTo("line 5: failed batch 3: \"rootMessage\" is missing; every failed batch has " + failureFields());
        assertThat(linesError(lines.replace("{\"failedBatch\":{\"batchId\":3", "{\"failedBatch\":{\"batchId\":\"3\"")))
                .isEqualTo("line 5: failed batch on this line: \"batchId\" is \"3\"; write an integer");
        assertThat(linesError("{\"failedBatch\":[]}"))
                .isEqualTo("line 1: failed batch on this line: expected a failed batch object with " + failureFields()
                        + ", got []");
        assertThat(linesError("{\"failedBatch\":{},\"batchId\":1}"))
                .isEqualTo("line 1: a failed batch's line is {\"failedBatch\":{...}} and nothing else, got "
                        + "{\"failedBatch\":{},\"batchId\":1}");

        String doc = RunResultJson.write(failedRun(), STRINGS);
        assertThatThrownBy(() -> RunResultJson.read(doc.replace("\"rows\" : 0", "\"rows\" : -1"), STRINGS))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("failed batch 3: \"rows\" is -1; write the number of rows the batch read, a whole number from 0");
        assertThatThrownBy(() -> RunResultJson.read(doc.replaceFirst("\"failures\" : \\[", "\"failures\" : 1, \"x\" : ["),
                STRINGS))
                .hasMessage("\"failures\" is 1; write an array of failed batch objects with " + failureFields());
        assertThatThrownBy(() -> RunResultJson.read(doc.replaceFirst("\"failures\" : \\[ \\{", "\"failures\" : [ 5, {"),
                STRINGS))
                .hasMessage("failures[0]: expected a failed batch object with " + failureFields() + ", got 5");
    }

    private static String failureFields() {
        return "[batchId, hadInput, rows, batchTimestamp, lateWatermark, evictionWatermark, errorClass, rootMessage]";
    }

    private static String batchFields() {
        return "[batchId, hadInput, batchTimestamp, lateWatermark, evictionWatermark, input, droppedLate, outputs, "
                + "outputPartitions, firedTimers, metrics, operators]";
    }

    private static String linesError(String lines) {
        try {
            RunResultJson.readLines(lines, STRINGS);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        throw new AssertionError("no error reading " + lines);
    }
}
