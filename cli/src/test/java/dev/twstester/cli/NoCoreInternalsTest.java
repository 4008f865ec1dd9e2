package dev.twstester.cli;

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
 * cli uses twstester through its public packages only: no class of this module, main or test,
 * depends on an {@code internal} package ({@code dev.twstester.internal} of tester-core,
 * {@code dev.twstester.junit.internal} of tester-junit), which may change in any release. A test
 * that needs an internal belongs in the module that owns it.
 */
class NoCoreInternalsTest {
    private static final ArchRule NO_CORE_INTERNALS = noClasses()
            .should().dependOnClassesThat().resideInAPackage("dev.twstester..internal..")
            .because("dev.twstester.internal is tester-core's own and dev.twstester.junit.internal tester-junit's; use "
                    + "the public route (e.g. dev.twstester.io.EncoderRows for rows of an encoder), or move a test that "
                    + "needs an internal into the module that owns it");

    @Test
    void no_class_of_this_module_uses_an_internal_package() {
        // this module's classes only (Maven runs tests in the module's folder)
        JavaClasses own = new ClassFileImporter()
                .importPaths(Path.of("target", "classes"), Path.of("target", "test-classes"));
        assertThat(own.stream().map(JavaClass::getName))
                .contains("dev.twstester.cli.TwsTesterCli", NoCoreInternalsTest.class.getName());
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
