package dev.twstester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;


import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each exit code, and the one-line messages: where it went wrong and what to do. */
class ReplayErrorsTest {
    static final String CART = ReplayCartStoryTest.CART;

    @Test
    void malformedJsonIsExitCode3WithFileAndLine(@TempDir Path dir) throws IOException {
        Cli.copy("cart", dir);
        Files.writeString(dir.resolve("002.jsonl"), """
                {"userId":"bo","event":"add","item":"scarf","ts":"2024-05-01T10:12:00Z"}
                {"userId":"bo","event":"checkout","ts":"2024-05-01T10:20:00Z"
                """);

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", CART);

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID_INPUT);
        assertThat(r.out()).as("files are read before the first batch runs").isEmpty();
        assertThat(r.err()).isEqualTo(dir.resolve("002.jsonl") + ":2: not valid JSON at column 62: Unexpected"
                + " end-of-input: expected close marker for Object (Spark's JSON source would read a row of nulls); write one JSON object per line, like {\"event\": ..., \"item\": ..., \"ts\": ..., \"userId\": ...}\n");
    }

    @Test
    void aValueSparkCannotReadIsNullAsInSparkWithAWarningNamingFileLineAndField(@TempDir Path dir) throws IOException {
        Cli.copy("cart", dir);
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 16; i++) {
            lines.append("{\"userId\":\"u").append(i).append("\",\"event\":\"add\",\"item\":\"pen\",")
                    .append("\"ts\":\"2024-05-01T10:12:00Z\"}\n");
        }
        lines.append("{\"userId\":\"bo\",\"event\":\"add\",\"item\":\"hat\",\"ts\":\"10:61\"}\n");
        Files.writeString(dir.resolve("002.jsonl"), lines);

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", CART);

        assertThat(r.exitCode()).as("CartWatch reads the null ts: " + r).isEqualTo(ExitCodes.PROCESSOR_FAILED);
        assertThat(r.err()).startsWith(dir.resolve("002.jsonl") + ":17: warning: field \"ts\": cannot read \"10:61\" as"
                + " timestamp; Spark's JSON source reads it as null, so does this replay\n")
                .contains("twstester: warning: 1 value of the input files became null (Spark's JSON source cannot read"
                        + " it: see the warnings above); the processor gets null there\n")
                .contains("batch 2: handleInputRows threw for key bo: java.lang.NullPointerException");
    }

    @Test
    void aPrimitiveFieldSparkReadsAsNullIsInvalidInputNamingFileLineFieldTypeAndValue(@TempDir Path dir)
            throws IOException {
        String query = dev.twstester.cli.fixtures.DoorChecks.class.getName();
        String encoder = "; Spark fails the query on such a row, as a Check cannot hold null there";
        Files.writeString(dir.resolve("001.jsonl"), "{\"door\": \"front\", \"ok\": true, \"floor\": 1}\n"
                + "{\"door\": \"back\", \"ok\": \"yes\", \"floor\": 1}\n");

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", query);

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID_INPUT);
        assertThat(r.err()).startsWith(dir.resolve("001.jsonl") + ":2: warning: field \"ok\": cannot read \"yes\" as"
                + " boolean; Spark's JSON source reads it as null, so does this replay\n")
                .contains(dir.resolve("001.jsonl") + ":2: field \"ok\" (boolean, which cannot be null in Check) is"
                        + " \"yes\" (a string), which Spark's JSON source reads as null" + encoder + "; write true or false");

        Files.writeString(dir.resolve("001.jsonl"), "{\"door\": \"front\", \"ok\": true}\n");
        r = Cli.run("replay", dir.toString(), "--query", query);

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID_INPUT);
        assertThat(r.err()).contains(dir.resolve("001.jsonl") + ":1: field \"floor\" (int, which cannot be null in"
                + " Check) is missing, which Spark's JSON source reads as null" + encoder + "; write a whole number,"
                + " e.g. 42");
    }

    @Test
    void aNumberForAStringFieldIsItsJsonTextAsInSpark(@TempDir Path dir) throws IOException {
        Cli.copy("cart", dir);
        Files.writeString(dir.resolve("003.jsonl"), "{\"userId\":7,\"event\":\"add\",\"item\":\"lamp\","
                + "\"ts\":\"2024-05-01T10:50:00Z\"}\n");

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", CART);

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.OK);
        assertThat(r.out()).endsWith("keys with state: [7]\n");
        assertThat(r.err()).doesNotContain("warning");
    }

    @Test
    void aFieldNotInTheSchemaIsIgnoredAsSparkDoesWithANote(@TempDir Path dir) throws IOException {
        Cli.copy("cart", dir);
        Files.writeString(dir.resolve("003.jsonl"), """
                {"userId":"bo","event":"add","item":"hat","ts":"2024-05-01T10:09:00Z","itme":"x"}
                {"userId":"cy","event":"add","item":"lamp","ts":"2024-05-01T10:50:00Z","itme":"y"}
                """);

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", CART);

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).endsWith(ReplayCartStoryTest.STORY);
        assertThat(r.err()).contains(dir.resolve("003.jsonl") + ":1: note: field \"itme\": unknown field (did you mean"
                + " \"item\"?); the fields are [event, item, ts, userId]; Spark's JSON source ignores it, so does this"
                + " replay\n");
        assertThat(r.err()).as("one note per field and file").doesNotContain("003.jsonl:2:");
    }

    @Test
    void anUnknownClassIsExitCode2AndNamesTheClasspathSearched(@TempDir Path extra) {
        Cli.Result r = Cli.run("replay", Cli.resource("cart").toString(), "--query", "SoldOutCart",
                "--classpath", extra.toString());

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).startsWith("--query: unknown class SoldOutCart (did you mean "
                + "dev.twstester.cli.fixtures.cart.SoldOutCart?); searched --classpath [" + extra
                + "] and the tool's classpath [");
        assertThat(r.err()).contains("; add its jar or classes folder with --classpath\n");
        assertThat(r.err().lines()).hasSize(1);
    }

    @Test
    void aClassWithoutTheMethodIsExitCode2AndListsTheQueryMethodsItHas() {
        Cli.Result r = Cli.run("replay", Cli.resource("cart").toString(), "--query",
                "dev.twstester.cli.fixtures.cart.SoldOutCart#story");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).isEqualTo("--query dev.twstester.cli.fixtures.cart.SoldOutCart#story:"
                + " dev.twstester.cli.fixtures.cart.SoldOutCart has no public static story() returning TwsQuery;"
                + " it has dev.twstester.cli.fixtures.cart.SoldOutCart#lenient,"
                + " dev.twstester.cli.fixtures.cart.SoldOutCart#query\n");
    }

    @Test
    void aQueryOnlyInAnExtraClasspathFolderIsFound(@TempDir Path dir) throws IOException {
        // GIVEN a class compiled into a folder that is not on the test classpath
        Path classes = Cli.compileCartsQuery(dir, "extra", "story");

        // WHEN --classpath names the folder THEN the query is found there
        Cli.Result r = Cli.run("replay", Cli.resource("cart").toString(), "--query", "extra.Carts#story",
                "--classpath", dir.resolve("nothing-here.jar") + File.pathSeparator + classes);
        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).isEqualTo("--classpath " + dir.resolve("nothing-here.jar") + ": no such file or folder\n");

        r = Cli.run("replay", Cli.resource("cart").toString(), "--query", "extra.Carts#story",
                "--classpath", classes.toString());
        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo(ReplayCartStoryTest.header("extra.Carts#story") + ReplayCartStoryTest.STORY);
    }

    @Test
    void aProcessorThatThrowsIsExitCode4NamingFileBatchMethodAndKey() {
        Path cart = Cli.resource("cart");

        Cli.Result r = Cli.run("replay", cart.toString(), "--query", "dev.twstester.cli.fixtures.cart.SoldOutCart");

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.PROCESSOR_FAILED);
        assertThat(r.err()).endsWith(cart.resolve("003.jsonl") + ": batch 4: handleInputRows threw for key cy:"
                + " java.lang.IllegalStateException: lamps are sold out [TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR]"
                + " (--stacktrace shows the stack trace)\n");
        assertThat(r.out()).as("the batches before it were printed").contains("batch 3 (no data, after 002.jsonl)")
                .doesNotContain("batch 4");
    }

    @Test
    void stacktracePrintsTheProcessorsStackTrace() {
        Cli.Result r = Cli.run("replay", Cli.resource("cart").toString(), "--query",
                "dev.twstester.cli.fixtures.cart.SoldOutCart", "--stacktrace");

        assertThat(r.exitCode()).isEqualTo(ExitCodes.PROCESSOR_FAILED);
        assertThat(r.err()).contains("[TRANSFORM_WITH_STATE_USER_FUNCTION_ERROR]\n")
                .contains("Caused by: java.lang.IllegalStateException: lamps are sold out")
                .contains("at dev.twstester.cli.fixtures.cart.SoldOutCart.handleInputRows(");
    }

    @Test
    void usageErrorsAreExitCode2() {
        Path cart = Cli.resource("cart");

        assertThat(Cli.run("replay", cart.toString()).exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(Cli.run("replay", "--query", CART).exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(Cli.run().exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(Cli.run("replay", cart.toString(), "--query", CART, "--format", "yaml").exitCode())
                .isEqualTo(ExitCodes.USAGE);

        Cli.Result badTick = Cli.runConfigured("replay", cart.toString(), "--query", CART, "--tick", "10:00");
        assertThat(badTick.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(badTick.err()).isEqualTo("Invalid value for option '--tick' (<instant>): '10:00' is not an ISO-8601 instant;"
                + " write it in UTC like 2024-05-01T10:00:00Z\nTry 'twstester replay --help' for more information.\n");

        Cli.Result misspelled = Cli.runConfigured("replay", cart.toString(), "--query", CART, "--show-states");
        assertThat(misspelled.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(misspelled.err()).startsWith("Unknown option: '--show-states'\nPossible solutions: --show-state");

        Cli.Result noFile = Cli.run("replay", cart.resolve("004.jsonl").toString(), "--query", CART);
        assertThat(noFile.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(noFile.err()).isEqualTo(cart.resolve("004.jsonl") + ": no such file or folder\n");

        Cli.Result badAt = Cli.run("replay", cart.toString(), "--query", CART, "--at", "009.jsonl=2024-05-01T10:00:00Z");
        assertThat(badAt.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(badAt.err()).isEqualTo("--at 009.jsonl=...: no such input file; the files are"
                + " [001.jsonl, 002.jsonl, 003.jsonl]\n");

        Cli.Result noLive = Cli.run("replay", cart.toString(), "--query", CART, "--no-compare-state");
        assertThat(noLive.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(noLive.err()).isEqualTo("--no-compare-state needs --live: it leaves the end states out of the"
                + " comparison with live Spark\n");
    }

    @Test
    void anInternalErrorIsExitCode70InOneLine() {
        StringWriter err = new StringWriter();

        int code = Failures.report(new IllegalStateException("broken\ninvariant"), new PrintWriter(err, true), false);

        assertThat(code).isEqualTo(ExitCodes.INTERNAL);
        assertThat(new ExitCodes().getExitCode(new NullPointerException())).isEqualTo(ExitCodes.INTERNAL);
        assertThat(err.toString().replace(System.lineSeparator(), "\n")).isEqualTo("internal error:"
                + " java.lang.IllegalStateException: broken invariant; please report it with the output of"
                + " --stacktrace\n");
    }

    @Test
    void helpShowsTheExitCodesAndTheTimeOptions() {
        Cli.Result r = Cli.run("replay", "--help");

        assertThat(r.exitCode()).isZero();
        assertThat(r.out()).contains("""
                Exit codes:
                  0    the replay ran (with --live or --expect: and matched)
                  1    live Spark (--live: a batch or the end state) or the expected run
                         (--expect) differs
                  2    usage: bad option, path, --query class or replay plan
                  3    an input file is not valid JSON lines for the query's input schema
                  4    the processor threw or Spark raised an error class in a batch, or
                         (--check-retries) a batch run twice differed
                  70   internal error of twstester (rerun with --stacktrace and report it)
                """)
                .contains("        input 001.jsonl at=1970-01-01T00:01:00Z\n")
                .contains("--batch-interval=<duration>");
        assertThat(Cli.run("--version").out()).isEqualTo("twstester 0.1.0-SNAPSHOT (simulates Spark "
                + dev.twstester.sim.SparkLine.classPathVersion() + " transformWithState)\n");
        assertThat(TwsTesterCli.Version.simulates("4.1.3")).isEqualTo("simulates Spark 4.1.3 transformWithState");
        assertThat(TwsTesterCli.Version.simulates("4.3.0"))
                .isEqualTo("simulates Spark 4.2 transformWithState, the nearest to Spark 4.3.0 on the class path");
    }
}
