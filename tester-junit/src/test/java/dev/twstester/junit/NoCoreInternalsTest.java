package dev.twstester.junit;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;

import dev.twstester.io.EncoderRows;

/**
 * tester-junit uses tester-core through its public packages only: no class of this module, main or
 * test, depends on {@code dev.twstester.internal} (tester-core's internals, which may change in any
 * release). A test that needs an internal belongs in tester-core.
 */
class NoCoreInternalsTest {
    private static final ArchRule NO_CORE_INTERNALS = noClasses()
            .should().dependOnClassesThat().resideInAPackage("dev.twstester.internal..")
            .because("dev.twstester.internal is tester-core's own; use its public route (e.g. "
                    + "dev.twstester.io.EncoderRows for rows of an encoder), or move a test that needs an internal into "
                    + "tester-core");

    @Test
    void no_class_of_this_module_uses_tester_core_internals() {
        // this module's classes only (Maven runs tests in the module's folder)
        JavaClasses own = new ClassFileImporter()
                .importPaths(Path.of("target", "classes"), Path.of("target", "test-classes"));
        assertThat(own.stream().map(JavaClass::getName))
                .contains("dev.twstester.junit.TestSimulator", NoCoreInternalsTest.class.getName());
        NO_CORE_INTERNALS.check(own);
    }

    @Test
    void the_rule_catches_a_class_that_uses_them() {
        // tester-core's public EncoderRows is built on its internal RowCodec
        JavaClasses core = new ClassFileImporter().importClasses(EncoderRows.class);
        assertThat(NO_CORE_INTERNALS.evaluate(core).getFailureReport().getDetails())
                .anySatisfy(line -> assertThat(line).contains("dev.twstester.internal.RowCodec"));
    }
}
