package dev.twstester;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import com.tngtech.archunit.lang.EvaluationResult;

/**
 * tester-core's package boundaries, checked on the compiled classes (ArchUnit): the simulator
 * uses nothing of the live runner, JUnit or the command line; only the live runner touches a
 * {@code SparkSession}; and every public type of {@code dev.twstester.internal} is listed here and
 * says in its Javadoc which other package of tester-core needs it public.
 */
class ArchitectureTest {
    private static final String INTERNAL = "dev.twstester.internal";
    /** Spark's session classes: the API one, its companion and builder, and Spark 4's classic implementation. */
    private static final String SPARK_SESSION = "org\\.apache\\.spark\\.sql\\.(classic\\.)?SparkSession(\\$.*)?";

    /**
     * The public types of {@code dev.twstester.internal} and why each is public. A new public type
     * there fails {@link #the_public_internal_types_are_exactly_these}: make it package-private, or
     * add it here with the reason in its Javadoc.
     */
    private static final Set<String> PUBLIC_INTERNAL = Set.of(
            "ContiguousPartitions",   // BatchResult, sim.Engine, spark.LiveRun: outputs' partitions without a list per row
            "EncoderShapes",          // sim: key and row shapes of an encoder
            "GroupStateTimeouts",     // sim, spark: a legacy key's timeout and Spark's "none" (-1), once
            "NamedCounts",            // BatchResult, sim.Metrics: a batch's metrics as one array, not a tree map
            "RowCodec",               // sim, spark, io: every encoding of keys, rows and state
            "Sneaky",                 // sim: rethrows the processor's checked exceptions unchanged
            "SparkLogs",              // spark: the live runner's log levels
            "SparkTimes",             // sim (event-time column), io (JSON rows and lines)
            "Triggers");              // TwsQuery, sim, spark, property: one reading of Spark's Trigger

    private static JavaClasses main;

    @BeforeAll
    static void importClasses() {
        // tester-core's main classes only (Maven runs tests in the module's folder)
        main = new ClassFileImporter().importPath(Path.of("target", "classes"));
    }

    @Test
    void the_simulator_uses_nothing_of_the_live_runner_junit_or_the_command_line() {
        ArchRule rule = noClasses().that().resideInAPackage("dev.twstester.sim..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.twstester.spark..", "dev.twstester.cli..",
                        "dev.twstester.junit..", "org.junit..", "picocli..")
                .because("the simulator runs in a plain unit test without Spark, JUnit or the command line");
        assertThat(main.that(inPackage("dev.twstester.sim")).size()).isGreaterThan(20);
        rule.check(main);
    }

    @Test
    void nothing_the_simulator_reaches_uses_the_live_runner() {
        ArchRule rule = noClasses().that().resideInAPackage("dev.twstester.sim..")
                .should().transitivelyDependOnClassesThat().resideInAnyPackage("dev.twstester.spark..",
                        "dev.twstester.cli..", "dev.twstester.junit..", "org.junit..", "picocli..");
        rule.check(main);
    }

    /**
     * The packages of tester-core depend on each other in one direction: no package reaches back
     * into one that depends on it (the root package is a slice of its own). Checked against the
     * classes before issue 22, this rule found the cycle between the root package and {@code sim}.
     */
    @Test
    void the_packages_form_no_cycle() {
        ArchRule rule = SlicesRuleDefinition.slices().assignedFrom(PACKAGES).should().beFreeOfCycles()
                .because("each package builds on the ones below it; a cycle makes two packages one");
        rule.check(main);
    }

    @Test
    void the_cycle_rule_sees_every_package() {
        Set<String> slices = new TreeSet<>();
        for (JavaClass c : main) {
            String slice = slice(c);
            if (slice != null) {
                slices.add(slice);
            }
        }
        assertThat(slices).contains("dev.twstester", "dev.twstester.sim", "dev.twstester.spark", "dev.twstester.io",
                "dev.twstester.property", "dev.twstester.report", "dev.twstester.internal");
    }

    /** Each class's package under dev.twstester, the root package included, is one slice. */
    private static final SliceAssignment PACKAGES = new SliceAssignment() {
        @Override
        public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
            String slice = slice(javaClass);
            return slice == null ? SliceIdentifier.ignore() : SliceIdentifier.of(slice);
        }

        @Override
        public String getDescription() {
            return "packages of tester-core";
        }
    };

    /** {@code dev.twstester} or {@code dev.twstester.x} for a class of tester-core, else null. */
    private static String slice(JavaClass javaClass) {
        String p = javaClass.getPackageName();
        if (!p.equals("dev.twstester") && !p.startsWith("dev.twstester.")) {
            return null;
        }
        String[] parts = p.split("\\.");
        return parts.length <= 2 ? p : parts[0] + "." + parts[1] + "." + parts[2];
    }

    @Test
    void only_the_live_runner_uses_a_spark_session() {
        ArchRule rule = noClasses().that().resideOutsideOfPackage("dev.twstester.spark..")
                .should().dependOnClassesThat().haveNameMatching(SPARK_SESSION)
                .because("a SparkSession takes seconds to start; only the live runner (dev.twstester.spark) starts one");
        rule.check(main);
    }

    @Test
    void the_session_rule_catches_the_live_runner() {
        ArchRule rule = noClasses().should().dependOnClassesThat().haveNameMatching(SPARK_SESSION);
        EvaluationResult result = rule.evaluate(main);
        assertThat(result.hasViolation()).isTrue();
        assertThat(String.join("\n", result.getFailureReport().getDetails())).contains("dev.twstester.spark.LiveSpark");
    }

    @Test
    void the_public_internal_types_are_exactly_these() {
        Set<String> actual = new TreeSet<>();
        for (JavaClass c : main.that(inPackage(INTERNAL))) {
            if (c.getModifiers().contains(JavaModifier.PUBLIC) && c.isTopLevelClass()) {
                actual.add(c.getSimpleName());
            }
        }
        assertThat(actual).as("public types of %s; make a new one package-private, or list it in "
                + "ArchitectureTest.PUBLIC_INTERNAL with its reason in its Javadoc", INTERNAL)
                .containsExactlyInAnyOrderElementsOf(PUBLIC_INTERNAL);
    }

    /**
     * Each public internal type is used from another package of tester-core (else it could be
     * package-private), and its Javadoc says so: a line {@code Public for} naming each such package
     * as {@code {@code dev.twstester.x}}.
     */
    @Test
    void each_public_internal_type_is_used_elsewhere_in_tester_core_and_says_where() throws IOException {
        Map<String, Set<String>> users = new TreeMap<>();
        for (String name : PUBLIC_INTERNAL) {
            JavaClass type = main.get(INTERNAL + "." + name);
            Set<String> packages = new TreeSet<>();
            type.getDirectDependenciesToSelf().forEach(d -> {
                String p = d.getOriginClass().getPackageName();
                if (!p.equals(INTERNAL)) {
                    packages.add(p);
                }
            });
            users.put(name, packages);
        }
        for (Map.Entry<String, Set<String>> e : users.entrySet()) {
            assertThat(e.getValue()).as("%s is public but no other package of tester-core uses it; make it "
                    + "package-private and remove it from ArchitectureTest.PUBLIC_INTERNAL", e.getKey()).isNotEmpty();
            String javadoc = classJavadoc(e.getKey());
            Matcher line = Pattern.compile("Public for ([^\\n]*(\\n\\s*\\*[^\\n]*)*)").matcher(javadoc);
            assertThat(line.find()).as("the Javadoc of %s needs a sentence 'Public for {@code package} (...)' naming "
                    + "the packages that use it: %s", e.getKey(), e.getValue()).isTrue();
            for (String p : e.getValue()) {
                assertThat(javadoc).as("the 'Public for' sentence of %s names each package that uses it", e.getKey())
                        .contains("{@code " + p + "}");
            }
        }
    }

    /** The Javadoc before the type declaration in tester-core's source. */
    private static String classJavadoc(String simpleName) throws IOException {
        Path source = Path.of("src/main/java/dev/twstester/internal", simpleName + ".java");
        String text = Files.readString(source);
        int declaration = text.indexOf(" " + simpleName);
        Matcher m = Pattern.compile("/\\*\\*(.*?)\\*/\\s*(@\\w+\\s*)*public ", Pattern.DOTALL).matcher(text);
        String last = null;
        while (m.find() && m.start() < declaration) {
            last = m.group(1);
        }
        assertThat(last).as("Javadoc of %s", source).isNotNull();
        return last;
    }

    private static DescribedPredicate<JavaClass> inPackage(String name) {
        return DescribedPredicate.describe("in package " + name, c -> c.getPackageName().equals(name));
    }
}
