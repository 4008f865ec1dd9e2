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
 * The README's pom and first test are the consumer project's (src/it/consumer, run by the invoker in
 * {@code mvn verify}): the pom is the consumer's {@code pom.xml} with the build's values filled in,
 * character for character, and the test's lines are DoorWatchTest's, in order.
 */
class UseItInYourProjectTest {
    private static final Path ROOT = Path.of("..");
    private static final Path CONSUMER = Path.of("src", "it", "consumer");
    private static final Pattern TOKEN = Pattern.compile("@([\\w.]+)@");

    private static String section(String heading) throws IOException {
        String readme = Files.readString(ROOT.resolve("README.md"));
        int start = readme.indexOf("\n## " + heading + "\n");
        assertThat(start).as("README section '%s'", heading).isNotNegative();
        int end = readme.indexOf("\n## ", start + 1);
        return readme.substring(start, end < 0 ? readme.length() : end);
    }

    private static String block(String section, String language) {
        Matcher m = Pattern.compile("```" + language + "\n(.*?)```", Pattern.DOTALL).matcher(section);
        assertThat(m.find()).as("a ```" + language + " block in the section").isTrue();
        return m.group(1);
    }

    /** The value the build gives a token of the consumer's pom: the root pom's version or one of its properties. */
    private static String buildValue(String rootPom, String name) {
        Pattern pattern = name.equals("project.version")
                ? Pattern.compile("<artifactId>twstester-parent</artifactId>\\s*<version>(.*?)</version>")
                : Pattern.compile("<" + Pattern.quote(name) + ">(.*?)</" + Pattern.quote(name) + ">", Pattern.DOTALL);
        Matcher m = pattern.matcher(rootPom);
        assertThat(m.find()).as("the root pom's %s", name).isTrue();
        return m.group(1);
    }

    static String filledIn(String consumerPom, String rootPom) {
        Matcher m = TOKEN.matcher(consumerPom);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(buildValue(rootPom, m.group(1))));
        }
        return m.appendTail(out).toString();
    }

    @Test
    void the_readme_pom_is_the_consumer_pom_with_the_builds_values() throws IOException {
        String rootPom = Files.readString(ROOT.resolve("pom.xml"));
        String consumer = Files.readString(CONSUMER.resolve("pom.xml"));
        String readme = block(section("Use it in your project"), "xml");

        assertThat(readme).isEqualTo(filledIn(consumer, rootPom));
        assertThat(TOKEN.matcher(readme).find()).as("a token left unfilled").isFalse();
    }

    @Test
    void the_consumer_pom_builds_on_maven_3_8_without_the_incubator_warning() throws IOException {
        String consumer = Files.readString(CONSUMER.resolve("pom.xml"));
        String filled = filledIn(consumer, Files.readString(ROOT.resolve("pom.xml")));

        assertThat(consumer).as("Maven 3.8's default compiler plugin ignores maven.compiler.release")
                .contains("<artifactId>maven-compiler-plugin</artifactId>\n        <version>@compiler.version@</version>");
        assertThat(consumer).contains("<argLine>${spark.jvm.flags}</argLine>");
        assertThat(filled).contains("--add-opens=java.base/sun.nio.ch=ALL-UNNAMED")
                .doesNotContain("jdk.incubator");
    }

    @Test
    void filling_in_replaces_each_token_with_the_builds_value() {
        String root = "<artifactId>twstester-parent</artifactId>\n  <version>9.9</version>"
                + "<properties><junit.version>6.1.3</junit.version></properties>";
        assertThat(filledIn("<v>@project.version@</v><j>@junit.version@</j>", root))
                .isEqualTo("<v>9.9</v><j>6.1.3</j>");
    }

    @Test
    void the_readme_test_is_the_consumer_projects_line_for_line() throws IOException {
        List<String> readme = codeLines(block(section("A first test"), "java"));
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
