package dev.twstester.samples.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Every relative link of README.md and docs/*.md leads somewhere: the file exists, and an anchor
 * ({@code page.md#section}, {@code #section}) is a heading of that page, as GitHub computes heading
 * anchors. No network: links with a scheme ({@code https:}, {@code mailto:}) are not followed, and
 * no link may leave the repository.
 */
class DocLinksTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern LINK = Pattern.compile("!?\\[(?:[^\\[\\]]|\\[[^\\]]*\\])*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)");

    @Test
    void every_relative_link_and_anchor_of_the_readme_and_docs_resolves() throws IOException {
        List<String> broken = new ArrayList<>();
        Map<Path, Set<String>> anchors = new HashMap<>();
        for (Path page : pages()) {
            for (String target : links(Files.readString(page))) {
                String problem = check(page, target, anchors);
                if (problem != null) {
                    broken.add(ROOT.relativize(page) + ": (" + target + ") " + problem);
                }
            }
        }
        assertThat(broken).as("broken links in README.md and docs/*.md").isEmpty();
    }

    @Test
    void the_readme_has_at_most_200_lines_and_no_page_points_outside_the_repository()
            throws IOException {
        assertThat(Files.readAllLines(ROOT.resolve("README.md"))).as("README.md's lines").hasSizeLessThanOrEqualTo(200);
        for (Path page : pages()) {
            assertThat(Files.readString(page)).as(ROOT.relativize(page).toString()).doesNotContain("../shared");
        }
    }

    @Test
    void anchors_are_computed_as_github_computes_them() {
        assertThat(anchorsOf("# User guide\n## 1. The JUnit extension\n### `--from-checkpoint`: a start\n"
                + "## Spark's logging\n## Spark 4.0, 4.1 and 4.2\n## Notes\n## Notes\n```\n# not a heading\n```\n"))
                .containsExactly("user-guide", "1-the-junit-extension", "--from-checkpoint-a-start",
                        "sparks-logging", "spark-40-41-and-42", "notes", "notes-1");
    }

    @Test
    void a_missing_page_or_heading_is_reported() {
        Map<Path, Set<String>> anchors = new HashMap<>();
        Path readme = ROOT.resolve("README.md");
        assertThat(check(readme, "docs/no-such-page.md", anchors)).startsWith("no file");
        assertThat(check(readme, "docs/triggers.md#no-such-heading", anchors)).startsWith("no heading");
        assertThat(check(readme, "../outside.md", anchors)).contains("outside the repository");
        assertThat(check(readme, "docs/triggers.md", anchors)).isNull();
    }

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        assertThat(pages).hasSizeGreaterThan(10);
        return pages;
    }

    /** Link targets outside fenced code blocks and inline code. */
    static List<String> links(String markdown) {
        List<String> out = new ArrayList<>();
        boolean inFence = false;
        for (String line : markdown.split("\n", -1)) {
            if (FENCE.matcher(line).find()) {
                inFence = !inFence;
                continue;
            }
            if (inFence) {
                continue;
            }
            Matcher m = LINK.matcher(line.replaceAll("`[^`]*`", "``"));
            while (m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    /** Null when the link resolves, else what is wrong. */
    static String check(Path page, String target, Map<Path, Set<String>> anchors) {
        if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
            return null;
        }
        int hash = target.indexOf('#');
        String file = hash < 0 ? target : target.substring(0, hash);
        Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        if (!resolved.startsWith(ROOT)) {
            return "points outside the repository: link to a page of the repository instead";
        }
        if (!Files.exists(resolved)) {
            return "no file " + ROOT.relativize(resolved);
        }
        if (hash < 0) {
            return null;
        }
        String anchor = target.substring(hash + 1);
        Set<String> known = anchors.computeIfAbsent(resolved, DocLinksTest::anchorsOf);
        return known.contains(anchor) ? null
                : "no heading with anchor #" + anchor + " in " + ROOT.relativize(resolved) + " (it has " + known + ")";
    }

    private static Set<String> anchorsOf(Path page) {
        try {
            return anchorsOf(Files.readString(page));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * GitHub's heading anchors: lower case, punctuation but hyphens and underscores dropped, each
     * space a hyphen; the second heading of the same anchor gets {@code -1}, the third {@code -2}.
     */
    static Set<String> anchorsOf(String markdown) {
        Set<String> out = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean inFence = false;
        for (String line : markdown.split("\n", -1)) {
            if (FENCE.matcher(line).find()) {
                inFence = !inFence;
                continue;
            }
            Matcher m = HEADING.matcher(line);
            if (inFence || !m.matches()) {
                continue;
            }
            String text = m.group(2).replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1");
            String slug = text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}\\s_-]", "").replace(' ', '-');
            int n = seen.merge(slug, 1, Integer::sum);
            out.add(n == 1 ? slug : slug + "-" + (n - 1));
        }
        return out;
    }
}
