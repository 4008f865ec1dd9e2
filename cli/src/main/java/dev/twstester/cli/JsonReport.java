package dev.twstester.cli;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.twstester.BatchResult;
import dev.twstester.FailedBatch;
import dev.twstester.RunDifference;
import dev.twstester.RunResult;
import dev.twstester.TwsQuery;
import dev.twstester.io.JsonRows;
import dev.twstester.io.RunResultJson;
import dev.twstester.sim.StateDump;

/**
 * The replay for tools: one JSON object per line and batch, the batch as
 * {@link RunResultJson#writeLines} writes it plus {@code file} (the input or add file that caused
 * it, null for a tick or a start) or {@code tick} or {@code "start":true}, {@code metrics} (an object of every metric the batch reports,
 * in {@link BatchResult#METRIC_NAMES} order), and with {@code --show-state} a {@code state} array of
 * {@code {"key":..., "variables":{name: value}, "timers":[...]}}. For a query of several stateful
 * operators the batch's {@code "operators"} array ({@link RunResultJson}) has each operator's view
 * of the batch, each with its own {@code metrics} and (with {@code --show-state}) {@code state};
 * the batch's own {@code state}, like its {@code metrics} and timers, is the first operator's, its
 * {@code outputs} the query's. A plan's start (or restart) step
 * is a line {@code {"restart":{"nextBatchId":4,"watermark":"...","processingTime":"..."}}} (with
 * {@code "waitingRows":n} when rows added while stopped wait), a stop that no start follows at
 * once {@code {"stop":{"processingTime":"..."}}}. A batch that failed when the replay goes on after
 * it (a later {@code start} or {@code deploy} step) is a line
 * {@code {"failedBatch":{"batchId":3,...},"file":"003.jsonl","message":"..."}} ({@link RunResultJson}'s
 * failed batch); a plan's {@code deploy} step a line
 * {@code {"deploy":{"version":"com.acme.Carts#fixed","nextBatchId":3,"rerun":3}}}, and the batches
 * its first trigger runs carry {@code "deploy":"com.acme.Carts#fixed"} instead of a file. With {@code --live} or
 * {@code --expect} the lines carry {@code "engine":"simulator"}, the other run's batches follow
 * ({@code "engine":"spark"} or {@code "expected"}), and a last line
 * {@code {"comparison":{"left":"simulator","right":"spark","same":true,"differences":[...]}}} ends
 * the output; with {@code --live} it also has
 * {@code "endState":{"compared":true,"afterBatch":5,"keys":1,"same":true,"differences":[...]}}
 * (the end states compared key by key, each difference in the shape of a batch difference, its
 * aspect {@code STATE}, {@code TIMERS}, {@code BATCH_ID}, {@code EVICTION_WATERMARK} or
 * {@code LATE_WATERMARK}) or {@code "endState":{"compared":false,"reason":"..."}}, and
 * {@code same} is false when the batches or the end states differ. Before the first batch, a file
 * without a value in the query's watermark column on any row is a line {@code {"warning":{"file":"002.jsonl","path":"events/002.jsonl",
 * "column":"ts","rows":3,"message":"..."}}}. A replay that fails ends with one line
 * {@code {"failure":{"exitCode":4,"batchId":4,"key":"cy","errorClass":"...","message":"...",
 * "file":"003.jsonl","path":"...","line":null,"step":"input 003.jsonl at=current","stepFrom":"options"}}}
 * (members null when not known; {@code line} is the event file's line of an invalid input, exit 3),
 * and the exit code is the one stderr's line has. Nothing else is written to stdout.
 */
final class JsonReport<K, I, O> implements Report<K, I, O> {
    private static final ObjectMapper JSON = JsonRows.mapper();

    private final PrintWriter out;
    private final TwsQuery<K, I, O> query;
    private final OperatorRows rows;
    private final boolean tagEngine;

    JsonReport(PrintWriter out, TwsQuery<K, I, O> query, boolean tagEngine) {
        this.out = out;
        this.query = query;
        this.rows = new OperatorRows(query);
        this.tagEngine = tagEngine;
    }

    @Override
    public void start(String queryName, ReplayPlan plan) {
        // no header: every line is a batch
    }

    @Override
    public void warning(EventInputs.Warning warning) {
        ObjectNode line = JSON.createObjectNode();
        line.putObject("warning").put("file", warning.file().label()).put("path", warning.file().display())
                .put("column", warning.column()).put("rows", warning.rows())
                .put("message", warning.message(warning.file().label()));
        print(line);
    }

    /** The last line of a failed replay: what {@link Failures#describe} found. */
    static String failureLine(Failures.Failure f) {
        ObjectNode line = JSON.createObjectNode();
        ObjectNode failure = line.putObject("failure");
        failure.put("exitCode", f.exitCode());
        failure.put("batchId", f.batchId());
        failure.set("key", f.key() == null ? failure.nullNode() : RowFormat.any(f.key()));
        failure.put("errorClass", f.errorClass());
        failure.put("message", f.message());
        failure.put("file", f.file() == null ? null : f.file().label());
        failure.put("path", f.file() == null ? null : f.file().display());
        failure.put("line", f.line() > 0 ? Integer.valueOf(f.line()) : null);
        failure.put("step", f.step());
        failure.put("stepFrom", f.stepFrom());
        return RowFormat.print(line);
    }

    @Override
    public void batch(BatchResult<K, I, O> b, BatchCause cause, List<StateDump<?>> states) {
        ObjectNode line = batchJson(b, cause, tagEngine ? "simulator" : null);
        if (states != null) {
            line.set("state", state(states.get(0), 0));
            JsonNode views = line.path("operators");
            for (int i = 0; i < views.size(); i++) {
                ((ObjectNode) views.get(i)).set("state", state(states.get(i), i));
            }
        }
        print(line);
    }

    /** One operator's state: {@code [{"key":..., "variables":{name: value}, "timers":[...]}, ...]}. */
    private ArrayNode state(StateDump<?> state, int operator) {
        ArrayNode keysJson = JSON.createArrayNode();
        for (StateDump.KeyState<?> k : state.keys()) {
            ObjectNode key = keysJson.addObject();
            key.set("key", RowFormat.json(k.key(), rows.keys(operator)));
            ObjectNode vars = key.putObject("variables");
            k.variables().forEach((name, v) -> vars.set(name, RowFormat.any(v.value())));
            ArrayNode timers = key.putArray("timers");
            k.timers().forEach(t -> timers.add(t.toString()));
        }
        return keysJson;
    }

    private ObjectNode batchJson(BatchResult<K, I, O> b, BatchCause cause, String engine) {
        ObjectNode line;
        try {
            line = (ObjectNode) JSON.readTree(RunResultJson.writeLines(new RunResult<>(List.of(b)), query));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("RunResultJson wrote JSON that does not parse: " + e.getOriginalMessage(), e);
        }
        if (cause != null && cause.tick() != null) {
            line.putNull("file");
            line.put("tick", cause.tick().toString());
        } else if (cause != null && cause.deployed() != null) {
            line.putNull("file");
            line.put("deploy", cause.deployed());
        } else if (cause != null && cause.atStart()) {
            line.putNull("file");
            line.put("start", true);
        } else {
            line.put("file", cause == null ? null : cause.file());
        }
        metrics(line, b);
        JsonNode views = line.path("operators");
        for (int i = 0; i < views.size(); i++) {
            metrics((ObjectNode) views.get(i), b.operators().get(i));
        }
        if (engine != null) {
            line.put("engine", engine);
        }
        return line;
    }

    /** {@code "metrics"}: every metric the batch (or operator view) reports, in {@link BatchResult#METRIC_NAMES} order. */
    private static void metrics(ObjectNode json, BatchResult<?, ?, ?> b) {
        ObjectNode metrics = json.putObject("metrics");
        for (String name : BatchResult.METRIC_NAMES) {
            Long value = b.metrics().get(name);
            if (value != null) {
                metrics.put(name, value);
            }
        }
    }

    @Override
    public void restart(long nextBatchId, Instant watermark, Instant processingTime, int waitingRows) {
        ObjectNode line = JSON.createObjectNode();
        ObjectNode restart = line.putObject("restart").put("nextBatchId", nextBatchId).put("watermark", watermark.toString())
                .put("processingTime", processingTime.toString());
        if (waitingRows > 0) {
            restart.put("waitingRows", waitingRows);
        }
        if (tagEngine) {
            line.put("engine", "simulator");
        }
        print(line);
    }

    @Override
    public void failedBatch(FailedBatch failed, BatchCause cause, String message) {
        ObjectNode line;
        try {
            line = (ObjectNode) JSON.readTree(RunResultJson.writeLines(new RunResult<>(List.of(), List.of(failed)), query));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("RunResultJson wrote JSON that does not parse: " + e.getOriginalMessage(), e);
        }
        line.put("file", cause.file());
        if (cause.deployed() != null) {
            line.put("deploy", cause.deployed());
        }
        line.put("message", message);
        if (tagEngine) {
            line.put("engine", "simulator");
        }
        print(line);
    }

    @Override
    public void deploy(String version, long nextBatchId, Long rerun, int waitingRows) {
        ObjectNode line = JSON.createObjectNode();
        ObjectNode deploy = line.putObject("deploy").put("version", version).put("nextBatchId", nextBatchId);
        deploy.put("rerun", rerun);
        if (waitingRows > 0) {
            deploy.put("waitingRows", waitingRows);
        }
        if (tagEngine) {
            line.put("engine", "simulator");
        }
        print(line);
    }

    @Override
    public void stop(Instant processingTime) {
        ObjectNode line = JSON.createObjectNode();
        line.putObject("stop").put("processingTime", processingTime.toString());
        if (tagEngine) {
            line.put("engine", "simulator");
        }
        print(line);
    }

    @Override
    public void tickWithoutBatch(Instant to, String why) {
        // no batch, no line
    }

    @Override
    public void addWithoutBatch(String file, int rows, int waiting, String why) {
        // no batch, no line
    }

    @Override
    public void end(Replay.Totals totals, int files, Instant watermark, Instant processingTime,
            List<List<?>> keysWithState, Instant pendingNoDataBatchAt) {
        // the batches are the output, and a no-data batch they left due at a trigger the replay did not reach
        if (pendingNoDataBatchAt != null) {
            ObjectNode line = JSON.createObjectNode();
            line.putObject("pendingNoDataBatch").put("at", pendingNoDataBatchAt.toString())
                    .put("watermark", watermark.toString());
            if (tagEngine) {
                line.put("engine", "simulator");
            }
            print(line);
        }
    }

    @Override
    public void comparison(String otherName, String otherTitle, RunResult<K, I, O> other,
            List<RunDifference> differences, Map<Long, BatchCause> causes, EndState endState) {
        for (BatchResult<K, I, O> b : other.batches()) {
            print(batchJson(b, causes.get(b.batchId()), otherName));
        }
        ObjectNode line = JSON.createObjectNode();
        ObjectNode comparison = line.putObject("comparison");
        comparison.put("left", "simulator").put("right", otherName)
                .put("same", differences.isEmpty() && (endState == null || endState.same()));
        differences(comparison.putArray("differences"), differences);
        if (endState != null) {
            ObjectNode state = comparison.putObject("endState").put("compared", endState.compared());
            if (endState.compared()) {
                state.put("afterBatch", endState.afterBatch()).put("keys", endState.keys())
                        .put("same", endState.same());
                differences(state.putArray("differences"), endState.differences());
            } else {
                state.put("reason", endState.notCompared());
            }
        }
        print(line);
    }

    /** Each difference as {@code {"batchId":..,"aspect":..,"key":..,"message":..}}. */
    private static void differences(ArrayNode list, List<RunDifference> differences) {
        for (RunDifference d : differences) {
            ObjectNode diff = list.addObject();
            diff.put("batchId", d.batchId());
            diff.put("aspect", d.aspect().name());
            diff.put("key", d.key() == null ? null : RowFormat.anyKeyText(d.key()));
            diff.put("message", d.message());
        }
    }

    private void print(JsonNode line) {
        out.println(RowFormat.print(line));
    }
}
