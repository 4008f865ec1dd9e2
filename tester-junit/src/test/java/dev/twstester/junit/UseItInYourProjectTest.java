package dev.twstester.junit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * README "Use it in your project" says the consumer project (src/it/consumer, run by the invoker in
 * {@code mvn verify}) is its setup: this keeps the README's pom and test snippets equal to it.
 */
class UseItInYourProjectTest {
    private static final Path ROOT = Path.of("..");
    private static final Path CONSUMER = Path.of("src", "it", "consumer");

    private static String section() throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        int start = readme.indexOf("\n## Use it in your project\n");
        assertThat(start).as("README section 'Use it in your project'").isNotNegative();
        int end = readme.indexOf("\n## ", start + 1);
        return readme.substring(start, end < 0 ? readme.length() : end);
    }

    private static String block(String section, String language) {
        Matcher m = Pattern.compile("```" + language + "\n(.*?)```", Pattern.DOTALL).matcher(section);
        assertThat(m.find()).as("a ```" + language + " block in the section").isTrue();
        return m.group(1);
    }

    /** Without XML comments, whitespace collapsed. */
    private static String xml(String text) {
        return text.replaceAll("(?s)<!--.*?-->", "").replaceAll("\\s+", " ").replace("> <", "><").trim();
    }

    private static List<String> elements(String xml, String tag) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("<" + tag + ">.*?</" + tag + ">").matcher(xml);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    private static String property(String xml, String name) {
        Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">(.*?)</" + Pattern.quote(name) + ">").matcher(xml);
        assertThat(m.find()).as("property " + name).isTrue();
        return m.group(1);
    }

    @Test
    void the_readme_pom_is_the_consumer_projects_with_the_builds_values() throws IOException {
        String readme = xml(block(section(), "xml"));
        String consumer = xml(Files.readString(CONSUMER.resolve("pom.xml")));
        String root = xml(Files.readString(ROOT.resolve("pom.xml")));

        assertThat(elements(readme, "dependency")).hasSize(4);
        assertThat(elements(consumer, "dependency")).containsAll(elements(readme, "dependency"));
        assertThat(property(readme, "junit.version")).isEqualTo(property(consumer, "junit.version"))
                .isEqualTo(property(root, "junit.version"));
        assertThat(property(readme, "maven.compiler.release")).isEqualTo(property(consumer, "maven.compiler.release"));
        assertThat(property(consumer, "twstester.version")).isEqualTo("@project.version@");
        assertThat(property(readme, "twstester.version")).isEqualTo(property(root, "version"));
        assertThat(property(consumer, "spark.jvm.flags")).isEqualTo("@spark.jvm.flags@");
        assertThat(property(readme, "spark.jvm.flags")).isEqualTo(property(root, "spark.jvm.flags"));

        List<String> plugins = elements(readme, "plugin");
        assertThat(plugins).hasSize(1);
        String surefire = plugins.get(0).replace(property(root, "surefire.version"), "@surefire.version@");
        assertThat(elements(consumer, "plugin")).anySatisfy(p -> assertThat(p)
                .startsWith(surefire.substring(0, surefire.indexOf("</configuration>")))
                .contains("<argLine>${spark.jvm.flags}</argLine>"));
    }

    @Test
    void the_readme_test_is_the_consumer_projects_line_for_line() throws IOException {
        List<String> readme = codeLines(block(section(), "java"));
        String test = String.join("\n", codeLines(Files.readString(
                CONSUMER.resolve(Path.of("src", "test", "java", "com", "example", "doors", "DoorWatchTest.java")))));
        assertThat(readme).hasSizeGreaterThan(20);
        int from = 0;
        for (String line : readme) {
            int at = test.indexOf(line, from);
            assertThat(at).as("README line '%s' in DoorWatchTest.java, in order", line).isNotNegative();
            from = at + line.length();
        }
    }

    /** Lines without // comments, whitespace collapsed, one-line bodies split at braces; no empty lines. */
    private static List<String> codeLines(String java) {
        List<String> out = new ArrayList<>();
        for (String line : java.replaceAll("//[^\n]*", "").replace("{ ", "{\n").replace("; }", ";\n}").split("\n")) {
            String l = line.replaceAll("\\s+", " ").trim();
            if (!l.isEmpty()) {
                out.add(l);
            }
        }
        return out;
    }
}
