package dev.twstester.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.apache.spark.sql.streaming.TimeMode;
import org.apache.spark.sql.streaming.Trigger;

import dev.twstester.TwsQuery;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code twstester replay}: JSON-lines event files, one micro-batch each, through a query on the
 * simulator (and with {@code --live} on live Spark), printed batch by batch.
 */
@Command(name = "replay",
        mixinStandardHelpOptions = true,
        versionProvider = TwsTesterCli.Version.class,
        sortOptions = false,
        usageHelpAutoWidth = true,
        header = "Replay JSON-lines event files through a transformWithState query, one micro-batch per file.",
        description = {
            "",
            "Each file is one micro-batch, as when it is dropped into the source folder of Spark's JSON file source;"
                    + " an empty file is an empty batch. A folder stands for every file in it, whatever its extension,"
                    + " as for Spark; names Spark skips (starting with _ or ., ending in ._COPYING_), subfolders and a"
                    + " scenario.txt that is not the plan are skipped with a note. Files run in natural order: numbers"
                    + " in names compare as numbers (1.jsonl, 2.jsonl, 10.jsonl); names that differ only in leading"
                    + " zeros (1.jsonl, 01.jsonl) are a usage error. The files of several folders run folder by folder"
                    + " and are named with their folder (day9/001.jsonl) in labels, JSON lines and --at. Lines are"
                    + " read with the query's input schema as Spark's JSON source reads them"
                    + " (default options, time zone UTC): one JSON object (or array of objects) per line; timestamps as"
                    + " strings Spark casts (\"2024-05-01T10:00:00Z\", \"2024-05-01 10:00:00\") or integer seconds;"
                    + " any JSON value for a string column, as its JSON text; missing fields and nulls as null. Where"
                    + " Spark would lose data quietly this says so on stderr, naming file, line and field: a value Spark"
                    + " cannot convert is null (as in Spark) with a warning (the count of such values follows), a field"
                    + " not in the schema is ignored with a note. A line that is not a JSON object (Spark: a row of"
                    + " nulls) is an error (exit 3) naming the file and line; so is a null (missing, null or not"
                    + " convertible) in a field that cannot be null (a primitive of a bean, where Spark's encoder fails"
                    + " naming no field), naming the field, its type and the value found. Every file is read and checked before the first batch runs; a file whose"
                    + " rows all lack the watermark column (absent or null on every row) is a warning then. Then the"
                    + " replay streams, holding the state and one"
                    + " file's batch (--live and --expect keep the whole run for their comparison).",
            "",
            "The simulator runs each batch as Spark 4.2.0 does, including the no-data batch after a watermark"
                    + " advance. For every batch stdout shows its id and file, rows in and dropped as late, the late"
                    + " and eviction watermarks, the batch timestamp, the output rows and the timers fired (rows as"
                    + " JSON through the query's encoders, times in UTC); for a query of several stateful operators"
                    + " (TwsQuery#then) each operator's outputs and timers fired, and from the second operator on its"
                    + " rows in and dropped as late (the last operator's outputs are the query's). Progress and errors"
                    + " go to stderr.",
            ""
        },
        parameterListHeading = "Arguments:%n",
        optionListHeading = "%nOptions:%n",
        footerHeading = "%nTime (TTL and processing-time timers):%n",
        footer = {
            "  The processing-time clock starts at 1970-01-01T00:00:00Z. With the default",
            "  trigger (interval 0) a file's batch runs at the current clock unless it is",
            "  given a time; with --trigger-interval (or the query's own interval) it runs",
            "  at the next trigger time (a multiple of the interval). A tick moves the",
            "  clock; a trigger runs there if one comes due: a data batch if rows wait, else",
            "  a pending no-data batch (in ProcessingTime mode: timers fire, TTL expires),",
            "  else nothing. Give the steps in one of two ways:",
            "  * a replay plan: the folder's scenario.txt, or --plan FILE, one step per",
            "    line, as GenScenario.writeBatchFiles writes it (# starts a comment; the",
            "    first blank line ends the plan):",
            "        input 001.jsonl at=1970-01-01T00:01:00Z",
            "        input 002.jsonl at=current",
            "        add 003.jsonl",
            "        tick to=1970-01-01T00:31:00Z",
            "        stop",
            "        start",
            "        restart",
            "        deploy com.acme.Carts#fixed",
            "    input: a batch at that trigger (current: the next one); add: the rows",
            "    wait in the source for the next trigger (with interval 0, outside",
            "    ProcessingTime mode, that is at once); stop: nothing runs until start,",
            "    rows added wait, a pending no-data batch is skipped; start: the query",
            "    restarts from its checkpoint (state, timers, watermark, clock and batch",
            "    ids carry over; a new processor runs init/close on the driver) and its",
            "    first trigger reads the waiting rows, if any; restart: stop, then start;",
            "    deploy: the query stops and the version that query method (as for",
            "    --query, with the same options) gives starts on the same checkpoint.",
            "  A batch that fails stops the query (exit 4 when no later restart or",
            "  deploy follows). With a later restart or deploy the replay reports the",
            "  failed batch and goes on: rows added wait, and the restart or deploy",
            "  runs the failed batch again first (same id, rows and times), so a",
            "  deploy of a fixed version ends the crash loop; an input step while the",
            "  query is stopped ends the replay with the failure (use add for rows",
            "  that arrive meanwhile).",
            "  * options: --batch-interval, --start, --at and --tick (input steps and",
            "    ticks).",
            "  In ProcessingTime mode with interval 0 every file needs a time strictly",
            "  later than the step before it; with no plan and no --batch-interval, files",
            "  are picked up one minute apart (--batch-interval PT1M).",
            "",
            "Examples:",
            "  twstester replay samples/src/main/resources/cart \\",
            "      --query dev.twstester.samples.cart.CartWatch",
            "  twstester replay events/ --query com.acme.Carts#storyQuery \\",
            "      --classpath target/classes --live",
            "  twstester replay clicks/ --query com.acme.Sessions --batch-interval PT5M \\",
            "      --tick 1970-01-01T01:00:00Z --show-state",
            "  twstester replay events/ --query com.acme.Carts --shuffle-partitions 3 \\",
            "      --check-retries --show-metrics",
            "  twstester replay events/ --query com.acme.Carts --format json > run.jsonl",
            "  twstester replay events/ --query com.acme.Carts --expect run.jsonl",
            "  twstester replay samples/src/main/resources/cart-digest \\",
            "      --query dev.twstester.samples.chain.ChainQueries#abandonedCartDigest"
        },
        exitCodeListHeading = ExitCodes.HEADING,
        exitCodeList = {ExitCodes.OK_LINE, ExitCodes.DIFFERENCE_LINE, ExitCodes.USAGE_LINE,
            ExitCodes.INVALID_INPUT_LINE, ExitCodes.PROCESSOR_LINE, ExitCodes.INTERNAL_LINE})
public final class ReplayCommand implements Callable<Integer> {
    static final Duration DEFAULT_PROCESSING_TIME_INTERVAL = Duration.ofMinutes(1);

    @Spec
    private CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "<file or folder>",
            description = "JSON-lines files (one micro-batch each) or folders of them (every file not starting with"
                    + " _ or .).")
    private List<Path> paths = new ArrayList<>();

    @Option(names = "--query", required = true, paramLabel = "<class>[#<method>]",
            description = {"The query: a class with a public static method returning TwsQuery (default name: query),"
                    + " or a class implementing Supplier<TwsQuery> with a public no-argument constructor."})
    private String query;

    @Option(names = "--classpath", split = "${sys:path.separator}", paramLabel = "<jar or folder>",
            description = "Extra jars or class folders to find the query in (repeat it, or separate entries with"
                    + " the path separator).")
    private List<Path> classpath = new ArrayList<>();

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json",
            description = "text (default): batch by batch for people; json: one JSON object per batch and line"
                    + " (with --live or --expect then the other run's batches and a last \"comparison\" line, with"
                    + " --live its \"endState\"); a file"
                    + " without the watermark column is a \"warning\" line before the batches, and a run that fails"
                    + " ends with a \"failure\" line (exitCode, batchId, key, errorClass, message, file, line, step),"
                    + " with the same exit code.")
    private Format format;

    @Option(names = "--show-state",
            description = "After each file's batches (and each tick's): every key's state variables and timers.")
    private boolean showState;

    @Option(names = "--show-metrics",
            description = "After each batch's outputs and timers: its non-zero operator metrics, under Spark's names"
                    + " (numRegisteredTimers, numUpdatedStateRows, ...). --format json always has them.")
    private boolean showMetrics;

    @Option(names = "--max-rows", paramLabel = "<n>", defaultValue = "" + TextReport.DEFAULT_MAX_ROWS,
            description = "Text: show at most n entries of each list of a batch (outputs, late rows, timers fired,"
                    + " keys of --show-state), then how many more (default: ${DEFAULT-VALUE}; 0 for all)."
                    + " --format json always has all.")
    private int maxRows;

    @Option(names = "--shuffle-partitions", paramLabel = "<n>",
            description = "spark.sql.shuffle.partitions (default: the query's, usually 1): keys are hashed into n"
                    + " partitions as Spark hashes them, and outputs come partition by partition. Also for --live.")
    private Integer shufflePartitions;

    @Option(names = "--trigger-interval", paramLabel = "<duration>",
            converter = TimeConverters.TriggerIntervalConverter.class,
            description = "The query's trigger, Trigger.ProcessingTime(interval), e.g. 0, 500ms, 1s, 5m or PT1M"
                    + " (default: the query's, usually 0: each batch runs as soon as its rows arrive). Rows wait for"
                    + " the next multiple of the interval; a tick runs the trigger it reaches. Also for --live.")
    private Duration triggerInterval;

    @Option(names = "--check-retries",
            description = "Simulator: run every batch twice from the same committed state, as Spark retries a task,"
                    + " and fail (exit 4) naming the batch and key if the runs emit or keep different things.")
    private boolean checkRetries;

    @Option(names = "--real-time",
            description = "Simulator: real-time mode, one handleInputRows call per input row (not with --live).")
    private boolean realTime;

    @Option(names = "--live",
            description = "Also run the same steps on live Spark (local, RocksDB) and compare batch by batch, then,"
                    + " when the batches agree, the end states: the simulator's state after the last step against"
                    + " the state live Spark's checkpoint holds after its last batch, key by key (every state"
                    + " variable's values with their TTL expirations, the registered timers, the next batch id,"
                    + " the watermarks). Exit 1 on any difference. Keeps every file's rows and batch in memory for"
                    + " the comparison.")
    private boolean live;

    @Option(names = "--no-compare-state",
            description = "With --live: compare the batches only, not the end states (saves reading live Spark's"
                    + " checkpoint after the run: a few small Spark jobs, under a second to about 2 s), e.g. for a"
                    + " processor that keeps the wall clock's time or a random id in state, which the two runs cannot"
                    + " share.")
    private boolean noCompareState;

    @Option(names = "--from-checkpoint", paramLabel = "<folder>",
            description = "Start the simulator from the state in a Spark streaming checkpoint (the query's"
                    + " checkpointLocation), read with Spark's state data source: every state variable with its TTL"
                    + " expirations, the registered timers, the watermark, the processing time and the next batch id"
                    + " of the last committed batch (or --batch-id's), as the query restarted from it; then the files"
                    + " run as the next batches. Give them processing times from the checkpoint's last batch on."
                    + " A checkpoint written by another version of the processor is a usage error naming each"
                    + " differing state variable with both schemas. Not with --live.")
    private Path fromCheckpoint;

    @Option(names = "--batch-id", paramLabel = "<n>",
            description = "With --from-checkpoint: read the state as batch n committed it (default: the last"
                    + " committed batch).")
    private Long checkpointBatchId;

    @Option(names = "--expect", paramLabel = "<file>",
            description = "Compare with a run saved earlier by --format json; exit 1 on any difference. Keeps every"
                    + " batch in memory for the comparison.")
    private Path expect;

    @Option(names = "--html", paramLabel = "<file>",
            description = "Also write the simulator's run as one self-contained HTML page (no external resource,"
                    + " opens offline): batches along the x axis, the watermarks and processing time as lines, per key"
                    + " its timers and state sizes, outputs and late rows; hover a batch for its rows. Written after"
                    + " the run, and after a failure with the batches that ran. With --live the page draws the"
                    + " simulator's run.")
    private Path html;

    @Option(names = "--plan", paramLabel = "<file>",
            description = "Replay plan to follow (default: scenario.txt in the folder given, if any).")
    private Path plan;

    @Option(names = "--no-plan", description = "Ignore the folder's scenario.txt.")
    private boolean noPlan;

    @Option(names = "--batch-interval", paramLabel = "<duration>", converter = TimeConverters.DurationConverter.class,
            description = "Trigger interval: file k (1, 2, ...) is picked up at --start + k * interval, e.g. PT1M.")
    private Duration batchInterval;

    @Option(names = "--start", paramLabel = "<instant>", converter = TimeConverters.InstantConverter.class,
            defaultValue = "1970-01-01T00:00:00Z",
            description = "Where --batch-interval counts from (default: ${DEFAULT-VALUE}).")
    private Instant start;

    @Option(names = "--at", paramLabel = "<file>=<instant>", mapFallbackValue = "",
            description = "The processing time one file's batch runs at, e.g. --at 002.jsonl=2024-05-01T10:05:00Z"
                    + " (with several folders: --at day9/002.jsonl=...); repeatable.")
    private Map<String, String> at = new LinkedHashMap<>();

    @Option(names = "--tick", paramLabel = "<instant>", converter = TimeConverters.InstantConverter.class,
            description = "A trigger tick: the clock moves to this time, before the first file with a later time;"
                    + " repeatable.")
    private List<Instant> ticks = new ArrayList<>();

    @Option(names = {"-q", "--quiet"}, description = "No progress lines on stderr (notes and errors still).")
    private boolean quiet;

    @Option(names = {"-x", "--stacktrace"}, description = "Print the stack trace of an error.")
    private boolean stacktrace;

    /** Rows the first reading of the files keeps for the batches (tests set it to 0 to read every file again). */
    long keepRows = EventInputs.DEFAULT_KEEP_ROWS;

    /** The output formats. */
    enum Format { text, json }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            return replay(out, err);
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable e) {
            Failures.Failure failure = Failures.describe(e);
            if (format == Format.json) {
                out.println(JsonReport.failureLine(failure));
            }
            out.flush();
            Failures.print(failure, e, err, stacktrace);
            return failure.exitCode();
        } finally {
            out.flush();
            err.flush();
        }
    }

    private int replay(PrintWriter out, PrintWriter err) {
        boolean timeOptions = !at.isEmpty() || !ticks.isEmpty() || batchInterval != null;
        if (plan != null && noPlan) {
            throw CliException.usage("--plan and --no-plan exclude each other");
        }
        if (plan != null && timeOptions) {
            throw CliException.usage("--plan gives the times; drop --at, --tick and --batch-interval, or the plan");
        }
        if (plan != null && !Files.isRegularFile(plan)) {
            throw CliException.usage("--plan " + plan + ": no such file");
        }
        if (expect != null && !Files.isRegularFile(expect)) {
            throw CliException.usage("--expect " + expect + ": no such file");
        }
        if (shufflePartitions != null && shufflePartitions < 1) {
            throw CliException.usage("--shuffle-partitions " + shufflePartitions + ": give 1 or more (Spark's"
                    + " spark.sql.shuffle.partitions)");
        }
        if (maxRows < 0) {
            throw CliException.usage("--max-rows " + maxRows + ": give 0 (show all) or more");
        }
        if (html != null && Files.isDirectory(html)) {
            throw CliException.usage("--html " + html + ": is a folder; give the page's file name, e.g. "
                    + html.resolve("timeline.html"));
        }
        if (realTime && live) {
            throw CliException.usage("--real-time: live Spark has no real-time mode here; drop --live to run it on"
                    + " the simulator, or --real-time to compare with Spark's micro-batches");
        }
        if (fromCheckpoint != null && live) {
            throw CliException.usage("--from-checkpoint: live Spark cannot resume a checkpoint written by another"
                    + " query's source; drop --live, or --from-checkpoint to compare a run from empty state");
        }
        if (noCompareState && !live) {
            throw CliException.usage("--no-compare-state needs --live: it leaves the end states out of the comparison"
                    + " with live Spark");
        }
        if (checkpointBatchId != null && fromCheckpoint == null) {
            throw CliException.usage("--batch-id " + checkpointBatchId + " needs --from-checkpoint <folder>");
        }
        if (checkpointBatchId != null && checkpointBatchId < 0) {
            throw CliException.usage("--batch-id " + checkpointBatchId + ": give a committed batch id, 0 or more");
        }
        Map<String, Instant> times = atTimes();
        Path planFile = planFile(timeOptions);
        List<EventFile> files = InputFiles.collect(paths, planFile, noPlan, err);
        QueryLoader loader = new QueryLoader(classpath);
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        // Spark compiles code for the query's classes and deserializes them in tasks through this loader
        thread.setContextClassLoader(loader.classLoader());
        try {
            QueryLoader.Loaded loaded = loader.load(query);
            TwsQuery<?, ?, ?> q = withOptions(loaded.query());
            ReplayPlan replayPlan = plan(files, planFile, times, q, err);
            return replay(q, loaded.name(), replayPlan, versions(loader, replayPlan, q, this::withOptions), out, err);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** {@code q} with {@code --shuffle-partitions} and {@code --trigger-interval}, when given. */
    private TwsQuery<?, ?, ?> withOptions(TwsQuery<?, ?, ?> q) {
        TwsQuery<?, ?, ?> result = shufflePartitions == null ? q : q.withShufflePartitions(shufflePartitions);
        return triggerInterval == null ? result : result.withTrigger(Trigger.ProcessingTime(triggerInterval.toMillis()));
    }

    /**
     * The query of each version the plan's deploy steps name, loaded as {@code --query} is, with the
     * same options; each must read the source and key its state as {@code q} does.
     */
    private static Map<String, TwsQuery<?, ?, ?>> versions(QueryLoader loader, ReplayPlan replayPlan, TwsQuery<?, ?, ?> q,
            java.util.function.UnaryOperator<TwsQuery<?, ?, ?>> options) {
        Map<String, TwsQuery<?, ?, ?>> versions = new LinkedHashMap<>();
        for (String version : replayPlan.deployedVersions()) {
            TwsQuery<?, ?, ?> next;
            try {
                next = options.apply(loader.load(version).query());
            } catch (CliException e) {
                throw CliException.usage(replayPlan.source() + ": deploy " + version + ": "
                        + e.getMessage().replaceFirst("^--query \\S+: ", ""), e);
            }
            if (!next.inputEncoder().equals(q.inputEncoder()) || !next.keyEncoder().equals(q.keyEncoder())
                    || !next.outputEncoder().equals(q.outputEncoder())) {
                throw CliException.usage(replayPlan.source() + ": deploy " + version + ": its input, key and output "
                        + "encoders must be those of --query " + "(a new version may change the processor, not how the "
                        + "source is read or the plan)");
            }
            versions.put(version, next);
        }
        return versions;
    }

    @SuppressWarnings("unchecked")
    private <K, I, O> int replay(TwsQuery<K, I, O> q, String name, ReplayPlan replayPlan,
            Map<String, TwsQuery<?, ?, ?>> versions, PrintWriter out, PrintWriter err) {
        Report<K, I, O> report = format == Format.json ? new JsonReport<>(out, q, live || expect != null)
                : new TextReport<>(out, q, showMetrics, simulatorModes(), maxRows);
        PrintWriter progress = quiet ? new PrintWriter(PrintWriter.nullWriter()) : err;
        Replay.Settings settings = new Replay.Settings(showState, checkRetries, realTime, keepRows, !noCompareState);
        Map<String, TwsQuery<K, I, O>> typed = new LinkedHashMap<>();
        versions.forEach((version, query) -> typed.put(version, (TwsQuery<K, I, O>) query));
        return new Replay<>(q, name, replayPlan, report, err, progress, settings).html(html).versions(typed)
                .fromCheckpoint(fromCheckpoint, checkpointBatchId).run(live, expect);
    }

    /** What the text header says about the simulator's options. */
    private List<String> simulatorModes() {
        List<String> modes = new ArrayList<>();
        if (checkRetries) {
            modes.add("every batch run twice to check retries");
        }
        if (realTime) {
            modes.add("real-time mode (one handleInputRows call per row)");
        }
        return modes;
    }

    /** The plan the replay follows: --plan, else the one folder's scenario.txt (unless --no-plan), else null. */
    private Path planFile(boolean timeOptions) {
        if (plan != null || noPlan) {
            return plan;
        }
        if (paths.size() == 1 && Files.isDirectory(paths.get(0))
                && Files.isRegularFile(paths.get(0).resolve(InputFiles.PLAN_NAME))) {
            Path planFile = paths.get(0).resolve(InputFiles.PLAN_NAME);
            if (timeOptions) {
                throw CliException.usage(planFile + " gives the times; drop --at, --tick and --batch-interval,"
                        + " or add --no-plan");
            }
            return planFile;
        }
        return null;
    }

    private ReplayPlan plan(List<EventFile> files, Path planFile, Map<String, Instant> times, TwsQuery<?, ?, ?> q,
            PrintWriter err) {
        boolean processingTime = q.timeMode().equals(TimeMode.ProcessingTime());
        ReplayPlan result;
        if (planFile != null) {
            result = ReplayPlan.read(planFile, files);
        } else {
            Duration interval = batchInterval;
            if (interval == null && processingTime && q.triggerIntervalMs() == 0 && times.size() < files.size()) {
                interval = DEFAULT_PROCESSING_TIME_INTERVAL;
                err.println("twstester: " + TextReport.timeMode(q.timeMode()) + " query without --batch-interval,"
                        + " --at or a plan: file k is picked up at " + start + " + k * " + interval);
            }
            result = ReplayPlan.fromOptions(files, times, ticks, interval, start);
        }
        result.validate(processingTime, q.triggerIntervalMs(),
                "give --batch-interval PT1M, --at FILE=TIME, --trigger-interval 1m or a plan (scenario.txt)");
        return result;
    }

    private Map<String, Instant> atTimes() {
        Map<String, Instant> times = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : at.entrySet()) {
            if (e.getValue().isEmpty()) {
                throw CliException.usage("--at " + e.getKey() + ": write --at FILE=TIME, like --at 002.jsonl="
                        + "2024-05-01T10:05:00Z");
            }
            try {
                times.put(e.getKey(), TimeConverters.parseInstant(e.getValue()));
            } catch (CommandLine.TypeConversionException x) {
                throw CliException.usage("--at " + e.getKey() + "=" + e.getValue() + ": " + x.getMessage());
            }
        }
        return times;
    }
}
