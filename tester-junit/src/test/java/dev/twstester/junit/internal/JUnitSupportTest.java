package dev.twstester.junit.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.testkit.engine.EngineTestKit;

import dev.twstester.junit.ExampleOnly;
import dev.twstester.junit.TwsExtension;

class JUnitSupportTest {
    private static final String TOO_OLD = "twstester's @TwsTest needs JUnit Jupiter 5.10 or later (5.x and 6.x; "
            + "tested with 5.10.3, 5.11.4 and 6.1.3), but junit-jupiter-api %s is on the test classpath; use a newer "
            + "JUnit, e.g. import org.junit:junit-bom:5.11.4 (or 6.1.3) in dependencyManagement";

    @Test
    void versions_parse_to_major_and_minor() {
        assertThat(JUnitSupport.majorMinor("5.10.3")).containsExactly(5, 10);
        assertThat(JUnitSupport.majorMinor("6.1.3")).containsExactly(6, 1);
        assertThat(JUnitSupport.majorMinor("6.0.0-M1")).containsExactly(6, 0);
        assertThat(JUnitSupport.majorMinor("5.9-SNAPSHOT")).containsExactly(5, 9);
        assertThat(JUnitSupport.majorMinor(" 5.14.4 ")).containsExactly(5, 14);
        assertThat(JUnitSupport.majorMinor("5")).isNull();
        assertThat(JUnitSupport.majorMinor("five.ten")).isNull();
        assertThat(JUnitSupport.majorMinor("")).isNull();
        assertThat(JUnitSupport.majorMinor(null)).isNull();
    }

    @Test
    void junit_5_10_and_later_and_6_run() {
        for (String v : List.of("5.10.0", "5.10.3", "5.11.4", "5.14.4", "6.0.0-M1", "6.1.3", "7.0.0")) {
            assertThat(JUnitSupport.problem(v, v)).as(v).isEmpty();
        }
        assertThat(JUnitSupport.problem("5.11.4", "5.11.3")).isEmpty();
        assertThat(JUnitSupport.problem("6.1.3", null)).isEmpty();
    }

    @Test
    void an_unknown_version_is_not_refused() {
        assertThat(JUnitSupport.problem(null, null)).isEmpty();
        assertThat(JUnitSupport.problem(null, "5.9.3")).isEmpty();
        assertThat(JUnitSupport.problem("unknown", "5.9.3")).isEmpty();
    }

    @Test
    void junit_older_than_5_10_is_refused_in_one_line_naming_both_versions() {
        assertThat(JUnitSupport.problem("5.9.3", "5.9.3")).contains(String.format(TOO_OLD, "5.9.3"));
        assertThat(JUnitSupport.problem("5.10.0-M1", null)).isEmpty();
        assertThat(JUnitSupport.problem("5.7.2", null)).contains(String.format(TOO_OLD, "5.7.2"));
        assertThat(JUnitSupport.problem("4.13", null)).contains(String.format(TOO_OLD, "4.13"));
        assertThat(JUnitSupport.problem("5.9.3", "5.9.3").orElseThrow()).doesNotContain("\n");
    }

    @Test
    void mixed_api_and_engine_versions_are_refused() {
        assertThat(JUnitSupport.problem("6.1.3", "5.11.4")).contains("junit-jupiter-api 6.1.3 and "
                + "junit-jupiter-engine 5.11.4 are both on the test classpath, and JUnit runs only with one version of "
                + "all its artifacts; import org.junit:junit-bom in dependencyManagement to align them (twstester's "
                + "@TwsTest needs JUnit Jupiter 5.10 or later (5.x and 6.x; tested with 5.10.3, 5.11.4 and 6.1.3))");
        assertThat(JUnitSupport.problem("5.11.4", "5.10.3")).isPresent();
    }

    @Test
    void this_build_runs_a_supported_junit_and_the_extension_starts() throws ClassNotFoundException {
        String api = ExtensionContext.class.getPackage().getImplementationVersion();
        String engine = Class.forName("org.junit.jupiter.engine.JupiterTestEngine").getPackage()
                .getImplementationVersion();
        assertThat(api).matches("[56]\\.\\d+\\.\\d+.*").isEqualTo(engine);
        assertThat(JUnitSupport.problem(api, engine)).isEmpty();
        JUnitSupport.requireSupported();
        assertThat(new TwsExtension()).isNotNull();
    }

    /** Ours against JUnit 6's own look-ups, in every context of a nested example (a repeated test too). */
    @Test
    void enclosing_classes_and_annotations_match_junits_own_lookups() {
        Probe.SEEN.clear();
        EngineTestKit.engine("junit-jupiter").selectors(selectClass(Outer.class))
                .configurationParameter(ExampleOnly.PARAMETER, "true").execute()
                .testEvents().assertStatistics(s -> s.started(8).succeeded(8));
        assertThat(Probe.SEEN).containsExactlyEntriesOf(new TreeMap<>(Map.ofEntries(
                Map.entry("Outer", "[] outer"),
                Map.entry("Outer.top()", "[] outer"),
                Map.entry("Outer$Middle", "[Outer] middle"),
                Map.entry("Outer$Middle.mid()", "[Outer] middle"),
                Map.entry("Outer$Middle$Inner", "[Outer, Outer$Middle] inner"),
                Map.entry("Outer$Middle$Inner.in()", "[Outer, Outer$Middle] inner"),
                Map.entry("Outer$Middle$Inner.repeated()", "[Outer, Outer$Middle] inner"),
                Map.entry("Outer$Middle$Plain", "[Outer, Outer$Middle] middle"),
                Map.entry("Outer$Middle$Plain.plain()", "[Outer, Outer$Middle] middle"),
                Map.entry("Outer$Templated", "[Outer] outer"),
                Map.entry("Outer$Templated$Deep", "[Outer, Outer$Templated] deep"),
                Map.entry("Outer$Templated$Deep.deep()", "[Outer, Outer$Templated] deep"))));
    }

    @Retention(RetentionPolicy.RUNTIME)
    @interface Marker {
        String value();
    }

    /** Records, per context, our enclosing classes and marker, after checking them against JUnit's. */
    static final class Probe implements BeforeAllCallback, BeforeEachCallback {
        static final Map<String, String> SEEN = new TreeMap<>();

        @Override
        public void beforeAll(ExtensionContext context) {
            record(context, "");
        }

        @Override
        public void beforeEach(ExtensionContext context) {
            record(context, "." + context.getRequiredTestMethod().getName() + "()");
        }

        private static synchronized void record(ExtensionContext context, String method) {
            List<Class<?>> ours = JUnitSupport.enclosingTestClasses(context);
            List<Class<?>> junits = context.getEnclosingTestClasses();
            if (!ours.equals(junits)) {
                throw new AssertionError(context.getUniqueId() + ": enclosing " + ours + ", JUnit says " + junits);
            }
            Class<?> c = context.getRequiredTestClass();
            String marker = JUnitSupport.findAnnotation(c, Marker.class, ours).map(Marker::value).orElse("none");
            String junitMarker = AnnotationSupport.findAnnotation(c, Marker.class, junits).map(Marker::value)
                    .orElse("none");
            if (!marker.equals(junitMarker)) {
                throw new AssertionError(context.getUniqueId() + ": marker " + marker + ", JUnit says " + junitMarker);
            }
            List<String> names = new ArrayList<>();
            ours.forEach(k -> names.add(simple(k)));
            SEEN.merge(simple(c) + method, names + " " + marker, (a, b) -> a.equals(b) ? a : a + " | " + b);
        }

        private static String simple(Class<?> c) {
            return c.getName().substring(c.getName().indexOf("Outer"));
        }
    }

    @ExampleOnly
    @ExtendWith(Probe.class)
    @Marker("outer")
    static class Outer {
        @Test
        void top() {
        }

        @Nested
        @Marker("middle")
        class Middle {
            @Test
            void mid() {
            }

            @Nested
            @Marker("inner")
            class Inner {
                @Test
                void in() {
                }

                @RepeatedTest(2)
                void repeated() {
                }
            }

            @Nested
            class Plain {
                @Test
                void plain() {
                }
            }
        }

        /** A class template (JUnit 5.13+): its invocations add contexts of the same class between. */
        @Nested
        @ParameterizedClass
        @ValueSource(ints = {1, 2})
        class Templated {
            @Parameter
            int n;

            @Nested
            @Marker("deep")
            class Deep {
                @Test
                void deep() {
                }
            }
        }
    }
}
