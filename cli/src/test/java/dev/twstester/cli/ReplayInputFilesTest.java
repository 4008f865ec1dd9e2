package dev.twstester.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which files of a folder a replay reads (every file Spark's JSON file source reads, whatever its
 * extension; what it skips is noted), in which order (natural: 1, 2, 10), and how files of several
 * folders are labelled and named by {@code --at}.
 */
class ReplayInputFilesTest {
    static final String CART = ReplayCartStoryTest.CART;
    static final String HEADER = ReplayCartStoryTest.header(CART + "#query");

    /** The cart story's files under other names (and folders). */
    private static void cartAs(Path dir, String first, String second, String third) throws IOException {
        Path cart = Cli.resource("cart");
        for (String[] copy : new String[][] {{"001.jsonl", first}, {"002.jsonl", second}, {"003.jsonl", third}}) {
            Path target = dir.resolve(copy[1]);
            Files.createDirectories(target.getParent());
            Files.copy(cart.resolve(copy[0]), target);
        }
    }

    private static String story(String first, String second, String third) {
        return ReplayCartStoryTest.STORY.replace("001.jsonl", "\u0001").replace("002.jsonl", "\u0002")
                .replace("003.jsonl", "\u0003").replace("\u0001", first).replace("\u0002", second)
                .replace("\u0003", third);
    }

    @Test
    void everyFileOfAFolderIsAnEventFileWhateverItsExtensionAsForSpark(@TempDir Path dir) throws IOException {
        cartAs(dir, "001.jsonl", "002.ndjson", "003.txt");

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", CART);

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo(HEADER + story("001.jsonl", "002.ndjson", "003.txt"));
        assertThat(r.err()).isEqualTo("twstester: replaying 3 files with " + CART + "#query on the simulator\n");
    }

    @Test
    void namesSparkSkipsAndSubfoldersAreSkippedWithANote(@TempDir Path dir) throws IOException {
        Cli.copy("cart", dir);
        Files.writeString(dir.resolve("_SUCCESS"), "");
        Files.writeString(dir.resolve(".DS_Store"), "\0\0\1");
        Files.writeString(dir.resolve("004.jsonl._COPYING_"), "{\"userId\":\"dee\"");
        Files.createDirectories(dir.resolve("old"));
        Files.writeString(dir.resolve("old/001.jsonl"), "");

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", CART, "-q");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo(HEADER + ReplayCartStoryTest.STORY);
        assertThat(r.err()).isEqualTo("twstester: " + dir + ": note: skipped .DS_Store, 004.jsonl._COPYING_, _SUCCESS"
                + " (Spark's file source skips names starting with _ or . and ending in ._COPYING_ too); old/"
                + " (subfolders are not replayed; give one as an argument to replay its files)\n");
    }

    @Test
    void theSkippedNamesAreSparksOwn() {
        assertThat(InputFiles.sparkSkips("_SUCCESS")).isTrue();
        assertThat(InputFiles.sparkSkips(".part-0.crc")).isTrue();
        assertThat(InputFiles.sparkSkips("001.json._COPYING_")).isTrue();
        // a partition-like name and Parquet's metadata files are listed by Spark
        assertThat(InputFiles.sparkSkips("_day=2024-05-01")).isFalse();
        assertThat(InputFiles.sparkSkips("_metadata")).isFalse();
        assertThat(InputFiles.sparkSkips("events.csv")).isFalse();
    }

    @Test
    void aScenarioTxtThatIsNotThePlanIsSkippedWithANote(@TempDir Path dir) throws IOException {
        // a plan is read only when one folder is given
        cartAs(dir, "day9/001.jsonl", "day9/002.jsonl", "day10/001.jsonl");
        Files.writeString(dir.resolve("day10/scenario.txt"), "input 001.jsonl at=current\n");

        Cli.Result r = Cli.run("replay", dir.resolve("day9").toString(), dir.resolve("day10").toString(), "--query",
                CART, "-q");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo(HEADER + story("day9/001.jsonl", "day9/002.jsonl", "day10/001.jsonl"));
        assertThat(r.err()).isEqualTo("twstester: " + dir.resolve("day10") + ": note: skipped scenario.txt (a replay"
                + " plan, never an event file; this replay follows no plan)\n");

        // --no-plan says to ignore the folder's plan: no note
        Cli.Result noPlan = Cli.run("replay", dir.resolve("day10").toString(), "--query", CART, "--no-plan", "-q");
        assertThat(noPlan.exitCode()).as(noPlan.toString()).isZero();
        assertThat(noPlan.err()).isEmpty();
    }

    @Test
    void aFileThatIsNotJsonLinesIsExitCode3SayingWhyItWasRead(@TempDir Path dir) throws IOException {
        Cli.copy("cart", dir);
        Files.writeString(dir.resolve("README.md"), "# cart events\n");

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", CART);

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.INVALID_INPUT);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo(dir.resolve("README.md") + ":1: not valid JSON at column 1: Unexpected"
                + " character ('#' (code 35)): expected a valid value (JSON String, Number (or 'NaN'/'+INF'/'-INF'),"
                + " Array, Object or token 'null', 'true' or 'false') (Spark's JSON source would read a row of nulls);"
                + " write one JSON object per line, like {\"event\": ..., \"item\": ...,"
                + " \"ts\": ..., \"userId\": ...} (README.md is read as JSON lines, as Spark's JSON file source reads"
                + " every file of its folder; move it out of the folder, or rename it to start with _ so that both"
                + " skip it)\n");
    }

    @Test
    void aFolderWithNoEventFileSaysWhatItSkipped(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("_001.jsonl"), "");

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", CART);

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.err()).isEqualTo(dir + ": no event file in this folder; skipped _001.jsonl (Spark's file source"
                + " skips names starting with _ or . and ending in ._COPYING_ too)\n");
    }

    @Test
    void numbersInNamesSortAsNumbers(@TempDir Path dir) throws IOException {
        cartAs(dir, "1.jsonl", "2.jsonl", "10.jsonl");
        String expected = HEADER + story("1.jsonl", "2.jsonl", "10.jsonl");

        Cli.Result folder = Cli.run("replay", dir.toString(), "--query", CART, "-q");
        assertThat(folder.exitCode()).as(folder.toString()).isZero();
        assertThat(folder.out()).isEqualTo(expected);

        // a shell's glob gives 1, 10, 2
        Cli.Result globbed = Cli.run("replay", dir.resolve("1.jsonl").toString(), dir.resolve("10.jsonl").toString(),
                dir.resolve("2.jsonl").toString(), "--query", CART, "-q");
        assertThat(globbed.exitCode()).as(globbed.toString()).isZero();
        assertThat(globbed.out()).isEqualTo(expected);
    }

    @Test
    void namesThatDifferOnlyInLeadingZerosAreAUsageError(@TempDir Path dir) throws IOException {
        cartAs(dir, "batch-1.jsonl", "batch-01.jsonl", "batch-2.jsonl");

        Cli.Result r = Cli.run("replay", dir.toString(), "--query", CART);

        assertThat(r.exitCode()).as(r.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo(dir.resolve("batch-01.jsonl") + " and " + dir.resolve("batch-1.jsonl")
                + ": the names differ only in leading zeros, so which runs first is ambiguous (files run in natural"
                + " order: 1, 2, 10); rename one, e.g. pad every number to the same width\n");
    }

    @Test
    void filesOfSeveralFoldersRunFolderByFolderLabelledWithTheirFolder(@TempDir Path dir) throws IOException {
        cartAs(dir, "day9/001.jsonl", "day9/002.jsonl", "day10/001.jsonl");

        Cli.Result r = Cli.run("replay", dir.resolve("day10").toString(), dir.resolve("day9").toString(), "--query",
                CART, "-q");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).isEqualTo(HEADER + story("day9/001.jsonl", "day9/002.jsonl", "day10/001.jsonl"));
    }

    @Test
    void atNamesAFileOfSeveralFoldersByItsLabel(@TempDir Path dir) throws IOException {
        cartAs(dir, "day9/001.jsonl", "day9/002.jsonl", "day10/001.jsonl");
        String day9 = dir.resolve("day9").toString();
        String day10 = dir.resolve("day10").toString();

        Cli.Result byName = Cli.run("replay", day9, day10, "--query", CART, "--at", "001.jsonl=1970-01-01T00:05:00Z");
        assertThat(byName.exitCode()).as(byName.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(byName.err()).isEqualTo("--at 001.jsonl=...: 2 files have this name (day9/001.jsonl,"
                + " day10/001.jsonl); name one with its folder, like --at day9/001.jsonl=...\n");

        Cli.Result byLabel = Cli.run("replay", day9, day10, "--query", CART, "--at",
                "day10/001.jsonl=1970-01-01T00:05:00Z", "-q");
        assertThat(byLabel.exitCode()).as(byLabel.toString()).isZero();
        assertThat(byLabel.out()).contains("""
                batch 4 (data, day10/001.jsonl)
                  rows in: 2, dropped late: 1
                    {"event":"add","item":"hat","ts":"2024-05-01T10:09:00Z","userId":"bo"}
                  watermark: late 2024-05-01T10:10:00Z, eviction 2024-05-01T10:10:00Z
                  batch timestamp: 1970-01-01T00:05:00Z
                """);
        assertThat(byLabel.out()).contains("""
                batch 2 (data, day9/002.jsonl)
                  rows in: 2, dropped late: 0
                  watermark: late 2024-05-01T09:58:00Z, eviction 2024-05-01T09:58:00Z
                  batch timestamp: 1970-01-01T00:00:00Z
                """);
    }

    @Test
    void aPlanNamesFilesOfSeveralFoldersByTheirPathFromThePlan(@TempDir Path dir) throws IOException {
        cartAs(dir, "day9/001.jsonl", "day9/002.jsonl", "day10/001.jsonl");
        Path plan = Files.writeString(dir.resolve("plan.txt"), """
                input day9/001.jsonl at=current
                input day9/002.jsonl at=current
                input day10/001.jsonl at=1970-01-01T00:05:00Z
                """);

        Cli.Result r = Cli.run("replay", dir.resolve("day9").toString(), dir.resolve("day10").toString(), "--query",
                CART, "--plan", plan.toString(), "-q");

        assertThat(r.exitCode()).as(r.toString()).isZero();
        assertThat(r.out()).contains("\n  batch timestamp: 1970-01-01T00:05:00Z\n");
        assertThat(r.out()).isEqualTo(HEADER.replace(". Times in UTC.", "; plan " + plan + ". Times in UTC.")
                + story("day9/001.jsonl", "day9/002.jsonl", "day10/001.jsonl")
                        .replace("""
                                batch 4 (data, day10/001.jsonl)
                                  rows in: 2, dropped late: 1
                                    {"event":"add","item":"hat","ts":"2024-05-01T10:09:00Z","userId":"bo"}
                                  watermark: late 2024-05-01T10:10:00Z, eviction 2024-05-01T10:10:00Z
                                  batch timestamp: 1970-01-01T00:00:00Z
                                """, """
                                batch 4 (data, day10/001.jsonl)
                                  rows in: 2, dropped late: 1
                                    {"event":"add","item":"hat","ts":"2024-05-01T10:09:00Z","userId":"bo"}
                                  watermark: late 2024-05-01T10:10:00Z, eviction 2024-05-01T10:10:00Z
                                  batch timestamp: 1970-01-01T00:05:00Z
                                """)
                        .replace("""
                                batch 5 (no data, after day10/001.jsonl)
                                  rows in: 0, dropped late: 0
                                  watermark: late 2024-05-01T10:10:00Z, eviction 2024-05-01T10:40:00Z
                                  batch timestamp: 1970-01-01T00:00:00Z
                                """, """
                                batch 5 (no data, after day10/001.jsonl)
                                  rows in: 0, dropped late: 0
                                  watermark: late 2024-05-01T10:10:00Z, eviction 2024-05-01T10:40:00Z
                                  batch timestamp: 1970-01-01T00:05:00Z
                                """)
                        .replace("processing time 1970-01-01T00:00:00Z", "processing time 1970-01-01T00:05:00Z"));
    }

    @Test
    void naturalOrderComparesNumbersByValueAndTheRestByCharacter() {
        long seed = new SplittableRandom().nextLong();
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < 2_000; i++) {
            long a = random.nextLong(0, 1L << 40);
            long b = random.nextLong(0, 1L << 40);
            String pa = "0".repeat(random.nextInt(3));
            String pb = "0".repeat(random.nextInt(3));
            String x = "part-" + pa + a + ".jsonl";
            String y = "part-" + pb + b + ".jsonl";
            assertThat(Integer.signum(InputFiles.compareNatural(x, y))).as("seed %d: %s vs %s", seed, x, y)
                    .isEqualTo(Long.signum(Long.compare(a, b)));
            String letters = randomLetters(random);
            String others = randomLetters(random);
            assertThat(Integer.signum(InputFiles.compareNatural(letters, others))).as("seed %d: %s vs %s", seed,
                    letters, others).isEqualTo(Integer.signum(letters.compareTo(others)));
            assertThat(Integer.signum(InputFiles.compareNatural(y, x))).as("seed %d: antisymmetric", seed)
                    .isEqualTo(-Integer.signum(InputFiles.compareNatural(x, y)));
        }
        assertThat(InputFiles.compareNatural("day9/002.jsonl", "day10/001.jsonl")).isNegative();
        assertThat(InputFiles.compareNatural("a.jsonl", "a1.jsonl")).isNegative();
        assertThat(InputFiles.compareNatural("1.jsonl", "01.jsonl")).isZero();
    }

    private static String randomLetters(SplittableRandom random) {
        StringBuilder s = new StringBuilder();
        int n = random.nextInt(6);
        for (int i = 0; i < n; i++) {
            s.append((char) ('a' + random.nextInt(4)));
        }
        return s.toString();
    }
}
