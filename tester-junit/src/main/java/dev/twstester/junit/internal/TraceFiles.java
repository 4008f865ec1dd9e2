package dev.twstester.junit.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.twstester.BatchResult;
import dev.twstester.RunResult;
import dev.twstester.Scenario;
import dev.twstester.TwsQuery;
import dev.twstester.io.EncoderRows;
import dev.twstester.io.JsonRows;
import dev.twstester.io.RunResultJson;
import dev.twstester.io.ScenarioPlan;
import dev.twstester.report.TimelinePage;

/**
 * Internal, not API: may change in any release.
 *
 * <p>Writes a recorded simulator as replayable files with {@link ScenarioPlan}'s writer:
 * {@code 001.jsonl}, {@code 002.jsonl}, ... (the rows of each input and add step, one JSON object
 * per line), {@code scenario.txt} (the replay plan, then the readable timeline) and
 * {@code _timeline.jsonl} (the timeline as JSON lines) and {@code _timeline.html} (the same run as
 * a {@link TimelinePage}: open it in a browser). The leading underscore keeps both out of a folder
 * replay, as Spark's file source skips such files.
 */
public final class TraceFiles {
    /** The {@code format} member of the timeline's header line. */
    public static final String FORMAT = "twstester-timeline";
    public static final String TIMELINE_FILE = "_timeline.jsonl";
    /** The timeline as an HTML page ({@link TimelinePage}). */
    public static final String PAGE_FILE = "_timeline.html";
    public static final String PLAN_FILE = ScenarioPlan.FILE_NAME;

    private static final ObjectMapper MAPPER = JsonRows.mapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private TraceFiles() {}

    /**
     * Writes the files of {@code recorder} into {@code dir} (created, and emptied of earlier
     * numbered batch files); {@code test} names the test and {@code failure} its error, if any.
     */
    public static <K, I, O> void write(Recorder<K, I, O> recorder, Path dir, String test, Throwable failure) {
        try {
            new Writer<>(recorder, dir).write(test, failure);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the trace of " + recorder + " to " + dir, e);
        }
    }

    private static final class Writer<K, I, O> {
        private final Recorder<K, I, O> recorder;
        private final TwsQuery<K, I, O> query;
        private final Path dir;
        private final EncoderRows<K> keys;
        private final boolean several;
        /** Creates {@code dir} and deletes numbered batch files an earlier, longer trace left. */
        private final ScenarioPlan.Writer<I> plan;
        private final StringBuilder timeline = new StringBuilder();

        Writer(Recorder<K, I, O> recorder, Path dir) throws IOException {
            this.recorder = recorder;
            this.query = recorder.query();
            this.dir = dir;
            EncoderRows<I> inputs = EncoderRows.of(query.inputEncoder());
            this.keys = EncoderRows.of(query.keyEncoder());
            this.several = query.operators().size() > 1;
            this.plan = ScenarioPlan.writer(dir, row -> inputs.toJson(row).toString());
        }

        void write(String test, Throwable failure) throws IOException {
            ObjectNode header = NODES.objectNode().put("format", FORMAT).put("version", 1)
                    .put("test", test).put("simulator", recorder.name())
                    .put("processor", query.userClass().getName())
                    .put("timeMode", Timelines.timeMode(query.timeMode()))
                    .put("outputMode", String.valueOf(query.outputMode()))
                    .put("watermarkDelay", query.watermarkDelay().toString());
            header.put("eventTimeColumn", query.eventTimeColumn().orElse(null));
            if (several) {
                ArrayNode operators = header.putArray("operators");
                query.operators().forEach(op -> operators.add(op.userClass().getName()));
            }
            if (recorder.callsLeftOut() > 0) {
                header.put("callsLeftOut", recorder.callsLeftOut());
                plan.comment("calls #1-#" + recorder.callsLeftOut() + " were not kept (keepHistory = false): this plan"
                        + " does not replay the test from its start");
            }
            header.put("failure", failure == null ? null : failure.toString());
            line(header);
            for (Call<K, I, O> call : recorder.calls()) {
                call(call);
            }
            ObjectNode end = NODES.objectNode().put("end", true)
                    .put("watermark", recorder.simulator().watermark().toString())
                    .put("processingTime", recorder.simulator().processingTime().toString())
                    .put("nextBatchId", recorder.simulator().nextBatchId());
            line(end);
            Files.writeString(dir.resolve(TIMELINE_FILE), timeline, StandardCharsets.UTF_8);
            plan.finish(Timelines.render(recorder, Integer.MAX_VALUE));
            page(test, failure).write(dir.resolve(PAGE_FILE));   // last: the replayable files are complete first
        }

        /**
         * The recorded calls as a page: each batch, and every key's state and timers (the first
         * operator's) as the recorder saw them after it.
         */
        private TimelinePage<K, I, O> page(String test, Throwable failure) {
            TimelinePage<K, I, O> page = TimelinePage.of(query, test)
                    .note("simulator '" + recorder.name() + "': " + Timelines.describe(query))
                    .note("State and timers as they were after each batch; what the test changed between batches"
                            + " (through state(), restore or restartWith) shows at the next batch.");
            if (several) {
                page.note("The lanes are the first operator's keys; the outputs are the query's, its last operator's.");
            }
            if (recorder.callsLeftOut() > 0) {
                page.note("calls #1-#" + recorder.callsLeftOut() + " left out (keepHistory = false)");
            }
            if (failure != null) {
                page.note("failed: " + Timelines.firstLine(failure));
            }
            PageState<K> state = recorder.pageStateBeforeCalls();
            for (Call<K, I, O> call : recorder.calls()) {
                state.apply(call.leftOut().changes());
                for (Call.Committed<K, I, O> committed : call.committed()) {
                    page.add(committed.batch());
                    state.apply(committed.changes());
                    page.stateAfter(state.now());
                }
                state.apply(call.trailing());
            }
            return page;
        }

        private void call(Call<K, I, O> call) throws IOException {
            ObjectNode line = NODES.objectNode().put("call", call.number()).put("description", call.description());
            ArrayNode steps = line.putArray("steps");
            for (Scenario.Step<I> step : call.steps()) {
                steps.add(step(step));
            }
            if (call.notReplayable() != null) {
                line.put("notReplayable", call.notReplayable());
                plan.comment("call " + call.number() + ", " + call.description() + ": no replay step ("
                        + call.notReplayable() + ")");
            }
            if (call.error() != null) {
                line.put("error", Timelines.firstLine(call.error()));
            }
            line(line);
            for (BatchResult<K, I, O> batch : call.batches()) {
                ObjectNode b = NODES.objectNode().put("call", call.number());
                b.set("batch", parse(RunResultJson.writeLines(new RunResult<>(List.of(batch)), query)));
                line(b);
            }
            for (StateChange change : call.changes()) {
                ObjectNode c = NODES.objectNode().put("call", call.number());
                ObjectNode body = c.putObject("stateChange");
                if (several) {
                    body.put("operator", change.operator());
                }
                body.set("key", key(change.operator(), change.key()));
                body.put("kind", change.kind()).put("variable", change.variable())
                        .put("before", change.before() == null ? null : String.valueOf(change.before()))
                        .put("after", change.after() == null ? null : String.valueOf(change.after()));
                line(c);
            }
        }

        private ObjectNode step(Scenario.Step<I> step) throws IOException {
            String file = plan.step(step);
            return step.applyTo(new Scenario.StepTarget<I, ObjectNode>() {
                @Override
                public ObjectNode batch(List<I> rows, Instant at) {
                    return NODES.objectNode().put("step", "input").put("file", file).put("rows", rows.size())
                            .put("at", at == null ? null : at.toString());
                }

                @Override
                public ObjectNode addData(List<I> rows) {
                    return NODES.objectNode().put("step", "add").put("file", file).put("rows", rows.size());
                }

                @Override
                public ObjectNode tick(Instant to) {
                    return NODES.objectNode().put("step", "tick").put("to", to.toString());
                }

                @Override
                public ObjectNode stop() {
                    return NODES.objectNode().put("step", "stop");
                }

                @Override
                public ObjectNode start() {
                    return NODES.objectNode().put("step", "start");
                }

                @Override
                public ObjectNode deploy(String version, TwsQuery<?, I, ?> next) {
                    return NODES.objectNode().put("step", "deploy").put("version", version);
                }
            });
        }

        /** A flat key bare, a struct key as an object, as RunResultJson writes keys. */
        @SuppressWarnings({"unchecked", "rawtypes"})
        private JsonNode key(int operator, Object key) {
            return operator == 0 ? keys.toJson((K) key) : ((EncoderRows) keyCodec(operator)).toJson(key);
        }

        private EncoderRows<?> keyCodec(int operator) {
            return EncoderRows.of(query.operators().get(operator).keyEncoder());
        }

        private void line(JsonNode node) throws JsonProcessingException {
            timeline.append(MAPPER.writeValueAsString(node)).append('\n');
        }

        private static JsonNode parse(String json) throws JsonProcessingException {
            return MAPPER.readTree(json);
        }
    }
}
