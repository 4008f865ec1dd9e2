package dev.twstester.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;

import dev.twstester.io.EncoderRows;

/**
 * The modules outside tester-core use it through its public packages only: no class of tester-junit,
 * samples or cli, main or test, depends on {@code dev.twstester.internal} (tester-core's internals,
 * which may change in any release), and none of samples or cli on {@code dev.twstester.junit.internal}
 * (tester-junit's). A test that needs an internal belongs in the module that owns it. Checked here,
 * in the reactor's last module, on the classes the build wrote to each module's {@code target/}.
 */
class NoCoreInternalsTest {
    private static final ArchRule NO_CORE_INTERNALS = noClasses()
            .should().dependOnClassesThat().resideInAPackage("dev.twstester.internal..")
            .because("dev.twstester.internal is tester-core's own; use its public route (e.g. "
                    + "dev.twstester.io.EncoderRows for rows of an encoder), or move a test that needs an internal into "
                    + "tester-core");
    private static final ArchRule NO_INTERNALS = noClasses()
            .should().dependOnClassesThat().resideInAPackage("dev.twstester..internal..")
            .because("dev.twstester.internal is tester-core's own and dev.twstester.junit.internal tester-junit's; use "
                    + "the public route (e.g. dev.twstester.io.EncoderRows for rows of an encoder), or move a test that "
                    + "needs an internal into the module that owns it");

    @Test
    void tester_junit_uses_no_internal_of_tester_core() {
        NO_CORE_INTERNALS.check(classesOf("tester-junit", "dev.twstester.junit.TestSimulator"));
    }

    @Test
    void samples_use_no_internal_package() {
        NO_INTERNALS.check(classesOf("samples", "dev.twstester.samples.cart.CartWatch"));
    }

    @Test
    void cli_uses_no_internal_package() {
        NO_INTERNALS.check(classesOf("cli", "dev.twstester.cli.TwsTesterCli"));
    }

    @Test
    void the_rules_catch_a_class_that_uses_an_internal() {
        // tester-core's public EncoderRows is built on its internal RowCodec
        JavaClasses core = new ClassFileImporter().importClasses(EncoderRows.class);
        for (ArchRule rule : new ArchRule[] {NO_CORE_INTERNALS, NO_INTERNALS}) {
            assertThat(rule.evaluate(core).getFailureReport().getDetails())
                    .anySatisfy(line -> assertThat(line).contains("dev.twstester.internal.RowCodec"));
        }
    }

    /** A module's main and test classes (Maven runs this test in cli's folder), checked to hold {@code expected}. */
    private static JavaClasses classesOf(String module, String expected) {
        Path root = Path.of("..", module, "target");
        assertThat(root.resolve("classes")).as(module + " is built (run the whole reactor: mvn -B verify)").isDirectory();
        JavaClasses classes = Files.isDirectory(root.resolve("test-classes"))
                ? new ClassFileImporter().importPaths(root.resolve("classes"), root.resolve("test-classes"))
                : new ClassFileImporter().importPaths(root.resolve("classes"));
        assertThat(classes.stream().map(JavaClass::getName)).as(module).contains(expected);
        return classes;
    }
}
