package io.sluice.perf.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The documentation holds together: the README stays short, reaches every page of {@code docs/} and
 * every module's README, quotes its one result from the result file that holds it, and every link
 * between the pages leads to a file and a heading that exist.
 */
class DocsTest {
    private static final Path ROOT = Path.of("..");
    private static final Path README = ROOT.resolve("README.md");
    private static final List<String> MODULE_READMES = List.of("storage/README.md", "zonemap/README.md",
            "shuffle/README.md", "shuffle/sql/README.md", "transport/README.md", "dispatch/README.md", "perf/README.md");
    /** A Markdown link or image: the target up to its closing parenthesis. */
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");

    @Test
    void theReadmeFitsOnAFewScreens() throws IOException {
        assertThat(Files.readAllLines(README)).hasSizeLessThanOrEqualTo(200);
    }

    @Test
    void everyPageOfTheDocsAndEveryModuleReadmeIsLinkedFromTheReadme() throws IOException {
        final Set<Path> linked = new HashSet<>();
        for (final Link link : links(README)) {
            linked.add(link.target().normalize());
        }
        final List<Path> pages = new ArrayList<>();
        try (Stream<Path> files = Files.walk(ROOT.resolve("docs"))) {
            files.filter(f -> f.toString().endsWith(".md") && !f.toString().contains("embedding-example"))
                    .forEach(f -> pages.add(f.normalize()));
        }
        for (final String module : MODULE_READMES) {
            pages.add(ROOT.resolve(module).normalize());
        }
        pages.add(ROOT.resolve("CHANGELOG.md").normalize());
        assertThat(pages).as("pages").isNotEmpty();
        assertThat(linked).as("pages the README links").containsAll(pages);
    }

    @Test
    void everyLinkLeadsToAFileAndHeadingThatExist() throws IOException {
        final List<String> broken = new ArrayList<>();
        for (final Path page : pagesToCheck()) {
            for (final Link link : links(page)) {
                if (!Files.exists(link.target())) {
                    broken.add(page + ": " + link.text() + " (no such file)");
                } else if (link.anchor() != null && link.target().toString().endsWith(".md")
                        && !anchors(link.target()).contains(link.anchor())) {
                    broken.add(page + ": " + link.text() + " (no such heading)");
                }
            }
        }
        assertThat(broken).as("broken links").isEmpty();
    }

    @Test
    void headingsGetTheAnchorsARendererGivesThem(@TempDir final Path dir) throws IOException {
        final Path page = Files.writeString(dir.resolve("page.md"),
                "# Tuning\n\n## `sluice gen` — TPC-H data\n\n```\n## not a heading\n```\n\n### What `sluice bench` shows\n");
        assertThat(anchors(page)).containsExactlyInAnyOrder("tuning", "sluice-gen--tpc-h-data", "what-sluice-bench-shows");
    }

    @Test
    void theReadmesResultIsQuotedFromTheResultFileItLinks() throws IOException {
        final String readme = Files.readString(README, StandardCharsets.UTF_8);
        final String section = readme.substring(readme.indexOf("## A result"), readme.indexOf("## Documentation"));
        assertThat(section).contains("](docs/bench/summary.md)");
        final List<String> summary = Files.readAllLines(ROOT.resolve("docs/bench/summary.md"));
        final List<String> quoted = section.lines().filter(line -> line.startsWith("|")).toList();
        assertThat(quoted).as("the quoted table").hasSizeGreaterThan(2);
        assertThat(summary).containsAll(quoted);
    }

    @Test
    void theExplainPagesExampleIsTheStartOfItsGoldenFile() throws IOException {
        final String page = Files.readString(ROOT.resolve("docs/explain.md"), StandardCharsets.UTF_8);
        final String golden = "perf/src/test/resources/explain/q18-3x2.txt";
        final int from = page.indexOf("```\n", page.indexOf("](../" + golden + ")")) + 4;
        final String example = page.substring(from, page.indexOf("...\n```", from));
        assertThat(example).isNotBlank();
        assertThat(Files.readString(ROOT.resolve(golden), StandardCharsets.UTF_8)).startsWith(example);
    }

    @Test
    void theReadmesExamplesRunThroughTheLauncher() throws IOException {
        assertThat(Files.readString(README, StandardCharsets.UTF_8)).doesNotContain("java -jar")
                .contains("bin/sluice bench --vs-duckdb");
    }

    /** A link of a page: what it says, the file it leads to and the heading, if any. */
    private record Link(String text, Path target, String anchor) {
    }

    private static List<Path> pagesToCheck() throws IOException {
        final List<Path> pages = new ArrayList<>(List.of(README, ROOT.resolve("CHANGELOG.md")));
        for (final String module : MODULE_READMES) {
            pages.add(ROOT.resolve(module));
        }
        try (Stream<Path> files = Files.walk(ROOT.resolve("docs"))) {
            files.filter(f -> f.toString().endsWith(".md") && !f.toString().contains("embedding-example"))
                    .forEach(pages::add);
        }
        return pages;
    }

    /** The links of a page outside its code blocks, resolved against the page's folder. */
    private static List<Link> links(final Path page) throws IOException {
        final List<Link> links = new ArrayList<>();
        boolean code = false;
        for (final String line : Files.readAllLines(page, StandardCharsets.UTF_8)) {
            if (line.startsWith("```")) {
                code = !code;
                continue;
            }
            if (code) {
                continue;
            }
            final Matcher m = LINK.matcher(line);
            while (m.find()) {
                final String text = m.group(1);
                if (text.startsWith("http://") || text.startsWith("https://") || text.startsWith("mailto:")) {
                    continue;
                }
                final int hash = text.indexOf('#');
                final String file = hash < 0 ? text : text.substring(0, hash);
                final String anchor = hash < 0 ? null : text.substring(hash + 1);
                links.add(new Link(text, file.isEmpty() ? page : page.getParent().resolve(file), anchor));
            }
        }
        return links;
    }

    /** The anchors a Markdown renderer gives the page's headings (GitHub's rule). */
    private static Set<String> anchors(final Path page) throws IOException {
        final Set<String> anchors = new HashSet<>();
        boolean code = false;
        for (final String line : Files.readAllLines(page, StandardCharsets.UTF_8)) {
            if (line.startsWith("```")) {
                code = !code;
            } else if (!code && line.startsWith("#")) {
                final String heading = line.replaceFirst("^#+\\s*", "").toLowerCase(Locale.ROOT);
                anchors.add(heading.replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'));
            }
        }
        return anchors;
    }
}
