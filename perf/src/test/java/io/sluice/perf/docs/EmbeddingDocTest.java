package io.sluice.perf.docs;

import static org.assertj.core.api.Assertions.assertThat;

import example.EmbeddingExample;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The embedding page ({@code docs/embedding.md}) is the example project as it is: its whole source,
 * its dependency, the install step, and what it prints when run.
 */
class EmbeddingDocTest {
    private static final Path EXAMPLE = Path.of("../docs/embedding-example");

    private static String page() throws IOException {
        return Files.readString(Path.of("../docs/embedding.md"));
    }

    @Test
    void showsTheExamplesWholeSource() throws IOException {
        final String source = Files.readString(EXAMPLE.resolve("src/main/java/example/EmbeddingExample.java"));
        assertThat(page()).contains("```java\n" + source + "```\n");
    }

    @Test
    void showsTheOneDependencyTheExampleHasAndHowToInstallIt() throws IOException {
        final String pom = Files.readString(EXAMPLE.resolve("pom.xml"));
        assertThat(pom).contains("<artifactId>sluice-shuffle</artifactId>")
                .doesNotContain("<artifactId>sluice-engine</artifactId>", "<artifactId>sluice-storage</artifactId>");
        assertThat(page()).contains("mvn -B install -DskipTests")
                .contains("  <groupId>io.sluice</groupId>\n  <artifactId>sluice-shuffle</artifactId>\n"
                        + "  <version>0.1.0-SNAPSHOT</version>\n");
    }

    @Test
    void showsWhatTheExamplePrints() throws IOException {
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        final PrintStream stdout = System.out;
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            EmbeddingExample.main(new String[0]);
        } finally {
            System.setOut(stdout);
        }
        assertThat(page()).contains("It prints:\n\n```\n" + captured.toString(StandardCharsets.UTF_8) + "```\n");
    }
}
